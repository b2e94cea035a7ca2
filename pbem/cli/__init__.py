"""The `pbem` command line."""
