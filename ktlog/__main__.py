"""python -m ktlog: the same as the `ktlog` command."""

from .cli import main

main()
