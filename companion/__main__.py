import sys

from companion.commands.main import main

sys.exit(main())
