import sys

from attncheck.cli import main

sys.exit(main())
