"""``python -m p2p_rommy`` works like ``rommy``."""

from p2p_rommy.cli import main

raise SystemExit(main())
