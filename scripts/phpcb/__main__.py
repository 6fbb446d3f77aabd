import sys

from phpcb.commands.main import main

sys.exit(main())
