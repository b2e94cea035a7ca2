"""Signed orders: Ed25519 over the orders' content hash, checked against keys fixed at game creation.

The signed message names its purpose and the hash of the orders without their signature; the
hash covers game, side, step and the state the orders answer, so a signature cannot be moved to
another game, side or step. `cryptography` is imported only when a game uses signatures.
"""
from __future__ import annotations

from typing import Any, Mapping

from .errors import MismatchError
from .orders import OrdersFile

PURPOSE = b"pbem-orders/1|"


def new_keypair() -> tuple[str, str]:
    """A fresh Ed25519 key pair as (private hex, public hex)."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    key = Ed25519PrivateKey.generate()
    raw = serialization.Encoding.Raw
    private = key.private_bytes(raw, serialization.PrivateFormat.Raw, serialization.NoEncryption())
    public = key.public_key().public_bytes(raw, serialization.PublicFormat.Raw)
    return private.hex(), public.hex()


def sign(orders: OrdersFile, private_hex: str) -> str:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    key = Ed25519PrivateKey.from_private_bytes(bytes.fromhex(private_hex))
    return key.sign(PURPOSE + orders.hash().encode()).hex()


def check(orders: OrdersFile, signing: Mapping[str, Any]) -> None:
    """Refuse (exit 2) orders that are unsigned, signed with another key, or changed after signing."""
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    keys = signing.get("keys", {})
    if orders.side not in keys:
        raise MismatchError(f"this game requires signed orders, and it has no key for side {orders.side!r}",
                            where=orders.source)
    if not orders.signature:
        raise MismatchError(f"this game requires signed orders; sign them with `pbem sign ORDERS --secret "
                            f"{orders.side}.secret.yaml -o SIGNED`", where=orders.source)
    try:
        Ed25519PublicKey.from_public_bytes(bytes.fromhex(keys[orders.side])).verify(
            bytes.fromhex(orders.signature), PURPOSE + orders.hash().encode())
    except (InvalidSignature, ValueError):
        raise MismatchError(f"the signature does not match {orders.side}'s key: signed by another side, or the "
                            "orders were changed after signing", where=orders.source) from None
