"""Throttles: failed logins, wrong current passwords and password reset requests.

Counts live in the cache (Redis in production, so that every server process
sees the same counts). The address is the client's as the trusted proxy saw
it (config/proxy.py), never one the client chose; an IPv6 address counts as
its /64 network, which one client usually holds whole.

Logins: 5 failures for one username from one address lock that pair for 15
minutes, even with the right password; 20 failures from one address, over any
usernames, lock the address (against trying one password on many accounts).
Nobody can lock a player out from another address. A lock works the same for
usernames that do not exist, so it tells nothing about which accounts there
are. A successful password reset lifts the locks (and forgets the failures) of
its account's username from every address: the pairs are counted under the
username's current "era", which the reset starts anew. An address locked for
failures over many usernames stays locked: that lock is the address's.

Nor can a player be locked out by someone who shares their address (a
school's network, a mobile carrier's NAT): a browser that has logged in as a
username keeps a signed cookie saying so (a "device cookie", as OWASP's
guide to blocking brute force names it), and a login as that username with
it skips the address's and the pair's locks. Its own failures count against
the cookie and the pair, not the address: 5 lock the cookie, and the browser
is then one like any other, whose pair is locked too. Whoever has no such
cookie cannot make one for another's username.

Password reset requests: 3 an hour for one email address (whether an
account has it or not) and 10 an hour from one address.

Sign-ups: 5 accounts an hour from one address. And 5 answers an hour to one
address that an account already has the email address typed, after which the
address's sign-ups wait for the hour: the answer tells who has an account. Every fair share of
games/play/limits.py (open tables, games against the computer, invitations)
and the chat's pace is an account's: without this bound, one person could
make accounts for as many shares as they like (and fill the lobby with
tables, or keep the worker thinking for computer players).

The counting is accounts/ratelimit.py's (fixed windows); the locks are this
module's. A cache that fails never turns a login into an error page: while it
is down the counts are kept in this process only (a warning is logged), which
still slows a guesser down.
"""

import ipaddress
import logging
import secrets
import time

from accounts.ratelimit import FALLBACK, Limiter, hashed_key

log = logging.getLogger(__name__)

FAILURES_PER_PAIR = 5  # one username from one address
FAILURES_PER_ADDRESS = 20
# Login failures are counted over this window, and a lock lasts as long.
WINDOW = 15 * 60  # seconds

# A browser's login cookie (see above): its name, how long it lasts, its failures.
DEVICE_COOKIE = "login_device"
DEVICE_SALT = "accounts.throttle.device"
DEVICE_AGE = 365 * 24 * 60 * 60  # seconds
FAILURES_PER_DEVICE = 5

# Wrong current passwords (changing the email address or the password), per account.
PASSWORD_CHECKS_PER_USER = 5

RESETS_PER_EMAIL = 3
RESETS_PER_ADDRESS = 10
RESET_WINDOW = 60 * 60

SIGNUPS_PER_ADDRESS = 5
SIGNUP_WINDOW = 60 * 60
# Sign-ups told that an account already has the email address typed, per address and hour.
TAKEN_EMAILS_PER_ADDRESS = 5
# Changes of an account's email address, per hour.
EMAIL_CHANGES_PER_USER = 3

# The counts, the locks and the eras: in the shared cache, in this process while it fails.
counts = Limiter("Throttle", when_down=FALLBACK, logger=log)


def _key(kind, *parts):
    # Hashed: a username may hold characters a cache key must not.
    return hashed_key("throttle", kind, *parts)


def address_key(address):
    """Return what `address` is counted as: the address, or an IPv6 address's /64 network."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if ip.version == 6:
        if ip.ipv4_mapped:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


def _is_locked(key):
    # The lock stores its end, not only a cache timeout, so that it ends on
    # time whatever the cache's own clock.
    until = counts.call("get", key)
    return until is not None and until > time.time()


def _fail(count_key, lock_key, limit, window):
    if counts.hit(count_key, window) >= limit:
        counts.call("set", lock_key, time.time() + window, timeout=window)
        counts.call("delete", count_key)


def _era_key(username):
    return _key("login-era", (username or "").casefold())


def _login_subjects(username, address):
    # Usernames are compared case-insensitively: "Alice" and "alice" must not
    # get five tries each.
    address = address_key(address or "")
    era = str(counts.call("get", _era_key(username)) or "")
    yield "login-pair", (username or "").casefold(), address, era, FAILURES_PER_PAIR
    if address:
        yield "login-address", address, FAILURES_PER_ADDRESS


def new_device(user):
    """Return the value of a login cookie for `user`, to be signed (DEVICE_SALT)."""
    return f"{user.pk}.{secrets.token_urlsafe(16)}"


def device_of(value):
    """Return (the user id, the nonce) a login cookie's value holds, or None."""
    pk, _, nonce = (value or "").partition(".")
    return (int(pk), nonce) if pk.isdigit() and nonce else None


def trusted_device(nonce, username):
    """Return the device a login as `username` comes from, or None if it is not trusted.

    `nonce` is that of a login cookie given to the account `username` names
    exactly (the caller checks the account: not a username equal to it in
    some case or normal form, nor a later account of a name given up). It
    is trusted until its own failures lock it.
    """
    era = str(counts.call("get", _era_key(username)) or "")
    if _is_locked(_key("login-device-locked", nonce, era)):
        return None
    return nonce, era


def is_locked(username, address, device=None):
    """Return whether a login as `username` from `address` is refused now.

    Never from a trusted device (`trusted_device`): its own lock made it untrusted.
    """
    if device is not None:
        return False
    return any(
        _is_locked(_key(f"{kind}-locked", *values))
        for kind, *values, _limit in _login_subjects(username, address)
    )


def record_failure(username, address, device=None):
    """Count a failed login; lock what reaches its limit.

    From a trusted device, the device and the pair are counted, not the
    address: once the device is locked, so is the pair, and whoever holds
    the browser has had no more tries than anyone else.
    """
    if device is not None:
        _fail(
            _key("login-device", *device),
            _key("login-device-locked", *device),
            FAILURES_PER_DEVICE,
            WINDOW,
        )
    for kind, *values, limit in _login_subjects(username, address):
        if device is None or kind == "login-pair":
            _fail(_key(kind, *values), _key(f"{kind}-locked", *values), limit, WINDOW)


def reset(username, address, device=None):
    """Forget the failures of `username` from `address` (and `device`) after a successful login."""
    if device is not None:
        counts.call("delete", _key("login-device", *device))
    for kind, *values, _limit in _login_subjects(username, address):
        if kind == "login-pair":
            counts.call("delete", _key(kind, *values))


def lift_login_locks(username):
    """Lift the login locks of `username` from every address, after a password reset.

    The counts and locks of the pairs and of the devices are kept under the
    username's era: a new era leaves the old ones unread (they expire by
    themselves). The era outlives every lock of the one before it.
    """
    counts.call("set", _era_key(username), f"{time.time():.6f}", timeout=2 * WINDOW)


def password_checks_locked(user):
    """Return whether checks of `user`'s current password are refused now (too many wrong)."""
    return _is_locked(_key("password-check-locked", str(user.pk)))


def record_wrong_password(user):
    """Count a wrong current password given to change the email address or the password."""
    values = str(user.pk)
    _fail(
        _key("password-check", values),
        _key("password-check-locked", values),
        PASSWORD_CHECKS_PER_USER,
        WINDOW,
    )


RESETS_TO_EMAIL = "email"  # the email address typed has had its emails this hour
RESETS_FROM_ADDRESS = "address"  # the client's address has asked for its emails this hour


def password_reset_refusal(email, address):
    """Count a password reset request; return None if an email may be sent for it.

    Else what is used up: RESETS_TO_EMAIL, or RESETS_FROM_ADDRESS. Counted by
    the email address typed, whether an account has it or not, so that the
    answer tells nothing about which accounts there are.
    """
    to_email = counts.hit(_key("reset-email", email.casefold()), RESET_WINDOW)
    from_address = 0
    if address:
        from_address = counts.hit(_key("reset-address", address_key(address)), RESET_WINDOW)
    if to_email > RESETS_PER_EMAIL:
        return RESETS_TO_EMAIL
    if from_address > RESETS_PER_ADDRESS:
        return RESETS_FROM_ADDRESS
    return None


def _asker(address=None, user=None):
    return f"user:{user.pk}" if user is not None else address_key(address or "")


def tell_taken_email(address=None, user=None):
    """Count a form (a sign-up from `address`, or `user`'s change of address) told that an
    account already has the email address typed."""
    asker = _asker(address, user)
    if asker:
        counts.hit(_key("taken-email", asker), SIGNUP_WINDOW)


def taken_emails_told_up(address=None, user=None):
    """Whether the sign-ups from `address` (or `user`'s changes of address) were told
    TAKEN_EMAILS_PER_ADDRESS times this hour that an email address has an account: they
    then wait (the form must say so, the address being an account's own, and anyone
    could ask about every address they know)."""
    asker = _asker(address, user)
    if not asker:
        return False
    told = counts.call("get", _key("taken-email", asker))
    return (told or 0) >= TAKEN_EMAILS_PER_ADDRESS


def allow_email_change(user):
    """Count a change of `user`'s email address; return whether it may be made.

    Each sends a link to the new address and a word to the old one: without a
    bound, changing back and forth would flood someone else's mailbox.
    """
    changed = counts.hit(_key("email-change", str(user.pk)), SIGNUP_WINDOW)
    return changed <= EMAIL_CHANGES_PER_USER


def allow_signup(address):
    """Count an account about to be made from `address`; return whether it may be."""
    if not address:
        return True
    made = counts.hit(_key("signup-address", address_key(address)), SIGNUP_WINDOW)
    return made <= SIGNUPS_PER_ADDRESS
