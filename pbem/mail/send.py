"""Deliver a composed message over SMTP; the password only ever comes from the environment."""
from __future__ import annotations

import os
import smtplib
import ssl
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from . import env as env_settings
from ..core.errors import PbemError, UsageError


class SendFailed(PbemError):
    """The SMTP server could not be reached or refused the message."""

    code = "MAIL_NOT_SENT"


@dataclass(frozen=True)
class SmtpSettings:
    host: str
    port: int
    starttls: bool
    user: str | None
    password: str | None


def settings(host: str | None, port: int | None, starttls: bool, user: str | None,
             env: Mapping[str, str] = os.environ) -> SmtpSettings:
    """Options first, then PBEM_SMTP_HOST / _PORT / _USER / _STARTTLS; PBEM_SMTP_PASSWORD always from env."""
    host = host or env.get("PBEM_SMTP_HOST")
    if not host:
        raise UsageError("--send needs an SMTP server: --smtp-host or PBEM_SMTP_HOST")
    starttls = env_settings.flag(starttls, env, "PBEM_SMTP_STARTTLS")
    port = env_settings.port(port, env, "PBEM_SMTP_PORT", 587 if starttls else 25)
    user = user or env.get("PBEM_SMTP_USER") or None
    password = env.get("PBEM_SMTP_PASSWORD") or None
    if user and not password:
        raise UsageError("an SMTP user needs its password in the environment variable PBEM_SMTP_PASSWORD")
    return SmtpSettings(host, port, starttls, user, password)


def send(raw: bytes, sender: str, recipients: Sequence[str], s: SmtpSettings, timeout: float = 30) -> None:
    """Send the exact bytes of the .eml (so what was written is what arrives)."""
    try:
        with smtplib.SMTP(s.host, s.port, timeout=timeout) as smtp:
            smtp.ehlo()
            if s.starttls:
                smtp.starttls(context=ssl.create_default_context())
                smtp.ehlo()
            if s.user:
                smtp.login(s.user, s.password or "")
            refused = smtp.sendmail(sender, list(recipients), raw)
    except smtplib.SMTPException as exc:
        raise SendFailed(f"SMTP server {s.host}:{s.port} refused: {exc}") from None
    except OSError as exc:
        raise SendFailed(f"cannot reach SMTP server {s.host}:{s.port}: {exc}") from None
    if refused:
        raise SendFailed(f"refused recipients: {', '.join(sorted(refused))}")
