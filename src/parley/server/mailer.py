"""E-mail: one checked mailbox per address, and messages whose headers are always sendable.

An address is accepted only when it is exactly one mailbox (no list, no display name, no
quoted local part), checked by `email-validator` without DNS so it works offline. A message
goes to that one recipient, in the envelope and the To header alike. Header values are
made one line (any line break or control character becomes a space) before the standard
library encodes them, so no stored text, however old, can make a message unsendable.
"""

from __future__ import annotations

import re
import smtplib
from dataclasses import dataclass
from email.headerregistry import Address
from email.message import EmailMessage

from email_validator import EmailNotValidError, validate_email

from .errors import BadRequest

# Every character that would end or break a header line, and the other controls: C0, DEL,
# C1 (with NEL), and the line and paragraph separators.
_UNSAFE_IN_HEADER = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]+")


def check_email(address: str) -> str:
    """The address as it will be used (its domain in ASCII), or BadRequest naming why not."""
    try:
        found = validate_email(
            address,
            check_deliverability=False,  # no DNS: the owner confirms it by reading a message
            allow_smtputf8=False,  # an ASCII local part, which every mail server can relay
            allow_display_name=False,
            allow_quoted_local=False,
        )
    except EmailNotValidError as err:
        raise BadRequest(f"{address!r} is not one e-mail address: {err}", field="email") from err
    checked = found.ascii_email or found.normalized
    if len(checked) > 254:
        raise BadRequest("an e-mail address may be at most 254 characters", field="email")
    return checked


def one_line(value: str, limit: int = 300) -> str:
    """`value` as a header may carry it: breaks and controls become a space, then cut."""
    text = _UNSAFE_IN_HEADER.sub(" ", value).strip()
    return text[:limit]


@dataclass(frozen=True, slots=True)
class Mail:
    """What to send to one recipient."""

    to: str
    subject: str
    body: str
    unsubscribe_url: str | None = None  # the one-click link (RFC 8058), if the message has one


@dataclass(frozen=True, slots=True)
class SmtpSettings:
    host: str
    port: int
    user: str | None
    password: str | None
    starttls: bool
    mail_from: str
    timeout: float


def build(mail: Mail, mail_from: str) -> EmailMessage:
    """The message, its headers made safe; the recipient is the one checked mailbox."""
    msg = EmailMessage()
    msg["From"] = one_line(mail_from, 998)
    local, _, domain = check_email(mail.to).rpartition("@")
    msg["To"] = Address(addr_spec=f"{local}@{domain}")
    msg["Subject"] = one_line(mail.subject)
    if mail.unsubscribe_url:
        msg["List-Unsubscribe"] = f"<{one_line(mail.unsubscribe_url, 998)}>"
        msg["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    msg.set_content(mail.body)
    return msg


def _sender(msg: EmailMessage) -> str:
    """The envelope sender: the address in From, without a display name."""
    addresses = getattr(msg["From"], "addresses", ())
    return str(addresses[0].addr_spec) if addresses else str(msg["From"])


def send(mail: Mail, st: SmtpSettings) -> None:
    """Send one message to its one recipient (the envelope names that recipient alone)."""
    msg = build(mail, st.mail_from)
    to = check_email(mail.to)
    with smtplib.SMTP(st.host, st.port, timeout=st.timeout) as smtp:
        if st.starttls:
            smtp.starttls()
        if st.user:
            smtp.login(st.user, st.password or "")
        smtp.send_message(msg, from_addr=_sender(msg), to_addrs=[to])
