"""python -m owui_citations install|uninstall [--frontend-dir DIR] | install --print-docker"""

import argparse
import sys
from pathlib import Path

from .installer import BUNDLE, InstallError, default_frontend, docker_mount, install, uninstall


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m owui_citations", description=__doc__)
    parser.add_argument("action", choices=["install", "uninstall"])
    parser.add_argument("--frontend-dir", type=Path, help="Open WebUI's frontend (default: the importable open_webui's)")
    parser.add_argument("--bundle", type=Path, default=BUNDLE, help="the built bundle (default: extension/dist)")
    parser.add_argument("--print-docker", action="store_true", help="print the bind mount for the official image instead")
    args = parser.parse_args()
    try:
        if args.print_docker:
            print(docker_mount(args.bundle))
            return 0
        frontend = args.frontend_dir or default_frontend()
        print(install(frontend, args.bundle) if args.action == "install" else uninstall(frontend))
        return 0
    except InstallError as error:
        print(f"owui_citations: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
