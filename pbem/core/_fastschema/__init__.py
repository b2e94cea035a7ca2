"""Validators generated from schemas/ by `python -m pbem.core.fastschema` (pbem/core/fastschema.py).

The exceptions they raise are defined here, so running them needs no fastjsonschema: only rebuilding does."""


class JsonSchemaValueException(ValueError):
    """A refusal; pbem only asks whether there was one (jsonschema then words the problems)."""

    def __init__(self, message, value=None, name=None, definition=None, rule=None):
        super().__init__(message)


JsonSchemaValuesException = JsonSchemaValueException
