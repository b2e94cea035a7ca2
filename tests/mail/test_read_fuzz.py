"""Whatever bytes arrive as mail, reading them ends in files saved or things left out, never a traceback."""
from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem.mail import read

PIECES = [b"Content-Type: multipart/mixed; boundary=\"b\"\r\n", b"Content-Type: message/rfc822\r\n",
          b"Content-Type: text/plain; charset=\"x-unknown\"; format=flowed; delsp=yes\r\n",
          b"Content-Type: text/html\r\n", b"Content-Type: application/x-yaml; name=\"o.yaml\"\r\n",
          b"Content-Transfer-Encoding: base64\r\n", b"Content-Transfer-Encoding: quoted-printable\r\n",
          b"Content-Disposition: attachment; filename*=utf-8''%FF%FE.eml\r\n", b"Subject: =?utf-8?q?=FF?=\r\n",
          b"Date: Mon, 99 Foo 20240 25:61:00 +9999\r\n", b"X-Pbem-State: zz\r\n", b"X-Pbem-Game: g\r\n",
          b"\r\n", b"--b\r\n", b"--b--\r\n", b"format: pbem/orders@1\r\n", b"> format: pbem/state@1\r\n",
          b"game: g\r\nside: axis\r\nstep: 0\r\n", b"{\"format\": \"pbem/orders@1\",\r\n", b"  - {move: [\r\n",
          b"=\r\n", b"==41==\r\n", b"pbem turn report: g\r\nState: " + b"a" * 64 + b"\r\n", b"\xff\xfe\x00",
          b"[-- Attachment #2: x --]\r\n", b"-- \r\n"]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.one_of(st.sampled_from(PIECES), st.binary(max_size=40)), max_size=40))
def test_any_message_is_read_without_a_traceback(parts):
    raw = b"".join(parts)
    letter = read.letter_of(raw, "fuzz")
    scan = read.scan(letter)
    for f in scan.found:
        assert f.name and "/" not in f.name
    for x in scan.left:
        assert x.describe()
