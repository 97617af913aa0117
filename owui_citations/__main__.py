"""owui-citations install [--backends FILE] | uninstall | status [--frontend-dir DIR] [--url URL]
owui-citations relay-install | relay-uninstall --url URL
owui-citations check-backends --backends FILE

`install --backends FILE` also installs declared backends (docs/formats.md, "Declared backends")
beside the bundle, after checking them as the page does: a file with any error is refused, with
every error, and nothing changes. `uninstall` takes them out too. `check-backends` only checks a
file (one mounted into a container, say).

The relay filter is optional: it forwards to the extension what Open WebUI drops from streamed
answers. It is registered through Open WebUI's API with an admin's token (an API key, Settings →
Account) taken from the environment variable OWUI_CITATIONS_TOKEN; with it, `status --url` reports
the relay too. The token goes to that address only: a redirect is refused (give the final URL),
and so is plain http:// to another machine than this one, unless --insecure-http is given.

Exit status: 0 done (status: installed, current, and served where --url is given); 1 status found
something `install` or a restart would change; 2 refused or could not check, with the reason."""

import argparse
import os
import sys
from pathlib import Path

from .installer import BACKUP
from .installer import BUNDLE
from .installer import PARTS
from .installer import InstallError
from .installer import Status
from .installer import bundle_version
from .installer import chained
from .installer import changed
from .installer import default_frontend
from .installer import install
from .installer import load_backends
from .installer import status
from .installer import uninstall
from .open_webui_api import INSECURE_HTTP_OPTION
from .open_webui_api import Refused
from .open_webui_api import checked_base_url
from .open_webui_api import printable
from .relay import RelayError
from .relay import install_relay
from .relay import relay_status
from .relay import uninstall_relay
from .served import Unreachable
from .served import served
from .served import served_part

TOKEN_VARIABLE = "OWUI_CITATIONS_TOKEN"


def served_line(url: str, found: Status) -> tuple[str, bool]:
    """What the running Open WebUI serves as loader.js, checked against what install writes (the
    packaged bundle, then only the loader.js it replaced), and whether that is it."""
    running = served(url, len(chained(found.bundle, found.backup)) + 1)
    version = bundle_version(running.loader)
    if version is None:
        return (
            f"Served by {url}: no — Open WebUI {running.open_webui} serves another loader.js"
            " (restart it after installing).",
            False,
        )
    shown = printable(version)
    if version != found.version:
        return (
            f"Served by {url}: version {shown}, not this package's {found.version} (Open WebUI "
            f"{running.open_webui}): restart it after installing.",
            False,
        )
    change = changed(running.loader, found.bundle, found.backup)
    if change == "tampered":
        return (
            f"Served by {url}: TAMPERED — its loader.js starts like version {shown} but is not what install "
            "writes: this package's bundle, followed only by the loader.js it replaced. Find out who changed it "
            "(another build of the same version, a developer's, reads so too).",
            False,
        )
    if change == "chained":
        return (
            f"Served by {url}: version {shown}, but the code chained after it differs from {BACKUP}: "
            "restart Open WebUI after installing.",
            False,
        )
    # Each part as packaged, one byte more read: a part that differs, even by code appended, is seen.
    unlike = [name for name, data in found.parts.items() if served_part(url, f"{PARTS}/{name}", len(data) + 1) != data]
    if unlike:
        return (
            f"Served by {url}: version {shown}, but not its parts as packaged ({', '.join(unlike)} under "
            f"/static/{PARTS}/: missing or changed): what needs them (the source window, export, the settings, "
            "other languages) does not work. Run `owui-citations install`, restart Open WebUI, and check that a "
            f"proxy or a mount serves /static/{PARTS}/.",
            False,
        )
    return f"Served by {url}: yes, version {shown} (Open WebUI {running.open_webui}).", True


def report_status(frontend: Path, bundle: Path, url: str | None) -> int:
    found = status(frontend, bundle)
    print("\n".join(found.lines))
    ok = found.ok
    if url:
        line, served_ok = served_line(url, found)
        print(line)
        ok = ok and served_ok
        if token := os.environ.get(TOKEN_VARIABLE):
            line, relay_ok = relay_status(url, token)
            print(line)
            ok = ok and relay_ok
        else:
            print(f"Relay filter: not checked (set {TOKEN_VARIABLE} to an admin's token).")
    return 0 if ok else 1


def relay(action: str, url: str | None) -> int:
    token = os.environ.get(TOKEN_VARIABLE)
    if not url or not token:
        raise RelayError(f"{action} needs --url and an admin's token in {TOKEN_VARIABLE}")
    print(install_relay(url, token) if action == "relay-install" else uninstall_relay(url, token))
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(
        prog="owui-citations", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "action", choices=["install", "uninstall", "status", "relay-install", "relay-uninstall", "check-backends"]
    )
    parser.add_argument(
        "--frontend-dir", type=Path, help="Open WebUI's frontend (default: the importable open_webui's)"
    )
    parser.add_argument("--bundle", type=Path, default=BUNDLE, help="the bundle to install (default: this package's)")
    parser.add_argument(
        "--backends", type=Path, help="install, check-backends: the declared backends file (JSON) to install or check"
    )
    parser.add_argument(
        "--url",
        help="status: also ask this running Open WebUI what it serves; relay-*: the Open WebUI (http://localhost:8080)",
    )
    parser.add_argument(
        INSECURE_HTTP_OPTION,
        action="store_true",
        help="allow a plain http:// --url on another machine: the admin's token then crosses the network readable",
    )
    args = parser.parse_args()
    try:
        url = args.url and checked_base_url(args.url, args.insecure_http)  # refused before any connection
        if args.action.startswith("relay-"):
            return relay(args.action, url)
        if args.action == "check-backends":
            if not args.backends:
                raise InstallError("check-backends needs --backends FILE")
            print(f"{args.backends}: valid, declared backends: {load_backends(args.backends)[1]}.")
            return 0
        if args.backends and args.action != "install":
            raise InstallError("--backends is for install and check-backends only")
        frontend = args.frontend_dir or default_frontend()
        if args.action == "status":
            return report_status(frontend, args.bundle, url)
        print(install(frontend, args.bundle, args.backends) if args.action == "install" else uninstall(frontend))
        return 0
    except (InstallError, Unreachable, RelayError, Refused) as error:
        print(f"owui-citations: {error}", file=sys.stderr)
        return 2
    except OSError as error:  # e.g. a link swapped in between a check and the open that refuses it (O_NOFOLLOW)
        print(f"owui-citations: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
