"""Moving pbem files by email: compose a turn's message, send it over SMTP, read what comes back.

Only the standard library (`email`, `mailbox`, `smtplib`) is used, so a player needs nothing
beyond pbem itself to play by mail.
"""
from __future__ import annotations

# Headers that let a reader route a message without opening its attachments.
H_GAME = "X-Pbem-Game"
H_STEP = "X-Pbem-Step"
H_STATE = "X-Pbem-State"
H_SIDE = "X-Pbem-Side"
H_KIND = "X-Pbem-Kind"
H_ORDERS = "X-Pbem-Orders"

# pbem file formats a message may carry, and the schema kind each is checked against.
FORMATS = {"pbem/orders@1": "orders", "pbem/state@1": "state"}
YAML_TYPES = frozenset({"application/x-yaml", "application/yaml", "text/yaml", "text/x-yaml"})
