"""The subcommands of `ktlog`, by what they do; `ktlog.cli` loads each module when one of its
commands runs."""
