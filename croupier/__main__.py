"""`python -m croupier`: the same command as the `croupier` script. The one module of the
package that reaches above it — nothing imports it, so the core stays fenced."""

import sys

from app.cli import main

sys.exit(main())
