"""The ``rommy`` command: one subcommand per job, each a thin shell over the core.

Errors a user can cause (a bad variant, a house rule typo) print one clear line
and exit 2; they never show a traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from p2p_rommy import __version__
from p2p_rommy.errors import ConfigError, ProtocolError, RommyError
from p2p_rommy.i18n import N_, _, say_os_error, say_reason
from p2p_rommy.limits import LOOK_FOR_TABLE_S
from p2p_rommy.portable import console, user
from p2p_rommy.rules.house import parse_assignments
from p2p_rommy.rules.variants import VARIANTS, ruleset
from p2p_rommy.wire.text import TABLE_NAME_MAX, name_problem, printable

if TYPE_CHECKING:  # imported where used: `rommy --help` stays quick
    from p2p_rommy.seat.opening import SeatOptions


def _name(value: str, limit: int = 32) -> str:
    """A name given on the command line: refused with the reason if it cannot be one."""
    problem = name_problem(value, limit)
    if problem is not None:
        raise argparse.ArgumentTypeError(problem)
    return value


def _seconds(value: str) -> float:
    """A wait on the command line: a number of seconds from 0.1 to an hour."""
    try:
        seconds = float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(
            _("not a number of seconds: {value!r}").format(value=value)
        ) from None
    if not 0.1 <= seconds <= 3600:
        raise argparse.ArgumentTypeError(
            _("a wait from 0.1 to 3600 seconds, not {value}").format(value=value)
        )
    return seconds


def _table_name(value: str) -> str:
    return _name(value, TABLE_NAME_MAX)


def _default_name(fallback: str, machine: bool = True) -> str:
    """The login name, else (at a network table) the machine's name, else `fallback`."""
    import socket

    names = [user.login_name()]
    if machine:
        names.append(socket.gethostname().split(".")[0])
    for name in names:
        if name_problem(name[:32]) is None:
            return name[:32]
    return fallback


def _house_arg(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--house",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help=_("set a house rule (repeatable); see `rommy rules --variant V`"),
    )


LANGUAGE_ALIASES = {"dk": "da", "no": "nb"}
"""What people type for Danish and Norwegian (the country codes) besides the language codes."""


def _lang_arg(parser: argparse.ArgumentParser) -> None:
    from p2p_rommy.i18n import LANGUAGES

    parser.add_argument(
        "--lang",
        type=lambda given: LANGUAGE_ALIASES.get(given, given),
        choices=LANGUAGES,
        help=_("the client's language: da (or dk), nb (or no) or en (default: from the locale)"),
    )


def _use_language(args: argparse.Namespace) -> None:
    from p2p_rommy.i18n import default_language, use

    use(args.lang or default_language())


def _colour_arg(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--four-colour",
        "--four-color",
        dest="four_colour",
        action="store_true",
        help=_("a colour for each suit (spades plain, hearts red, diamonds blue, clubs green)"),
    )
    parser.add_argument(
        "--theme",
        choices=("light", "dark"),
        help=_(
            "colours for a light or a dark terminal (default: ROMMY_THEME, else what the "
            "terminal says in COLORFGBG, else colours readable on both)"
        ),
    )


def _use_theme(args: argparse.Namespace) -> None:
    """`--theme`, for the screens this command draws (none without the client)."""
    if getattr(args, "theme", None) is not None:
        from p2p_rommy.tui.app import use_theme

        use_theme(args.theme)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="rommy", description=_("Peer-to-peer rummy for the home network, with fair dealing.")
    )
    parser.add_argument(
        "--version",
        action="version",
        version=f"rommy {__version__}",
        help=_("show program's version number and exit"),
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    play = commands.add_parser("play", help=_("play against bots on this machine (full-screen)"))
    play.add_argument("--variant", choices=VARIANTS, default="lp")
    play.add_argument(
        "--bots", type=int, default=3, metavar="N", help=_("how many bots (default 3)")
    )
    play.add_argument(
        "--bot-level",
        default="normal",
        metavar="LEVEL",
        help=_("random, easy, normal or hard (default normal)"),
    )
    play.add_argument("--name", type=_name, help=_("your name (default: your login name)"))
    play.add_argument("--seed", type=int, help=_("repeatable deals and bots"))
    play.add_argument("--ascii", action="store_true", help=_("suits as letters, no symbols"))
    _colour_arg(play)
    play.add_argument(
        "--data-dir",
        type=Path,
        help=_("where the game's transcript is kept (default: the user's data dir)"),
    )
    _lang_arg(play)
    _house_arg(play)

    simulate = commands.add_parser(
        "simulate", help=_("play a whole match between bots and print the score sheet")
    )
    simulate.add_argument("--variant", choices=VARIANTS, default="lp")
    simulate.add_argument("--players", type=int, default=4)
    simulate.add_argument("--seed", type=int, default=1)
    simulate.add_argument(
        "--no-network",
        action="store_true",
        help="engine only: no deck protocol, no sockets (much faster)",
    )
    simulate.add_argument(
        "--transcript",
        type=Path,
        metavar="FILE",
        help="write the signed transcript here (networked mode)",
    )
    simulate.add_argument("--first-dealer", type=int, default=0, help="seat of the first dealer")
    simulate.add_argument(
        "--bots",
        metavar="KINDS",
        help="the bot of each seat, comma-separated: random, easy, normal, hard "
        "(e.g. normal,random,random; one kind fills every seat; default random)",
    )
    _house_arg(simulate)

    def seat_args(sub: argparse.ArgumentParser, name: bool = True) -> None:
        sub.add_argument(
            "--bot",
            nargs="?",
            const="normal",
            metavar="LEVEL",
            help=_("play this seat with a bot, without the client (random, easy, normal, hard)"),
        )
        sub.add_argument("--ascii", action="store_true", help=_("suits as letters, no symbols"))
        _colour_arg(sub)
        _lang_arg(sub)
        if name:  # a resumed seat keeps the name in its game's config
            sub.add_argument(
                "--name", type=_name, help=_("your name (default: login or machine name)")
            )
        sub.add_argument(
            "--interface",
            metavar="ADDR",
            help=_(
                "only for the odd case (two networks, and the default route's is the "
                "wrong one): the network to use, as this machine's IP address on it"
            ),
        )
        sub.add_argument(
            "--data-dir",
            type=Path,
            default=None,
            metavar="DIR",
            help=_("identity and transcripts (default: the user data dir)"),
        )

    host = commands.add_parser("host", help=_("open a table on the network"))
    host.add_argument(
        "table", nargs="?", type=_table_name, metavar="TABLE", help=_("the table's name")
    )
    host.add_argument(
        "--table", dest="table_option", type=_table_name, metavar="NAME", help=argparse.SUPPRESS
    )
    host.add_argument("--variant", choices=VARIANTS, default="lp")
    _house_arg(host)
    host.add_argument(
        "--start-when", type=int, metavar="N", help=_("start the game when N players are seated")
    )
    seat_args(host)

    join = commands.add_parser("join", help=_("join a table on the network"))
    join.add_argument(
        "table", nargs="?", metavar="TABLE", help=_("its name (default: the only one)")
    )
    join.add_argument("--table", dest="table_option", metavar="NAME", help=argparse.SUPPRESS)
    join.add_argument("--connect", metavar="HOST:PORT", help=_("join without mDNS"))
    join.add_argument(
        "--creator",
        metavar="FINGERPRINT",
        help=_("join only the table whose creator proves this key (as shown on their screen)"),
    )
    join.add_argument(
        "--wait",
        type=_seconds,
        default=LOOK_FOR_TABLE_S,
        metavar="SECONDS",
        help=_("how long to look for the table (default {seconds:g})").format(
            seconds=LOOK_FOR_TABLE_S
        ),
    )
    seat_args(join)

    resume = commands.add_parser("resume", help=_("restart this seat of a game after a crash"))
    resume.add_argument(
        "game",
        nargs="?",
        metavar="GAME_ID",
        help=_("the game id rommy printed (a prefix will do; default: the one unfinished game)"),
    )
    seat_args(resume, name=False)

    identity = commands.add_parser(
        "id", help=_("your key's fingerprint, where it is kept, how to back it up")
    )
    identity.add_argument(
        "--data-dir",
        type=Path,
        metavar="DIR",
        help=_("where the identity is kept (default: the user data dir)"),
    )
    _lang_arg(identity)

    tables = commands.add_parser("tables", help=_("list the tables seen on the network"))
    tables.add_argument("--interface", metavar="ADDR")
    tables.add_argument("--wait", type=float, default=3.0, metavar="SECONDS")
    _lang_arg(tables)

    doctor = commands.add_parser(
        "doctor", help=_("check why tables are not found or cannot be joined (network, firewall)")
    )
    doctor.add_argument("--interface", metavar="ADDR", help=_("check only this address"))
    doctor.add_argument("--data-dir", type=Path, metavar="DIR", help=_("identity and transcripts"))
    _lang_arg(doctor)

    verify = commands.add_parser("verify", help=_("check offline that a game was fair"))
    verify.add_argument("transcript", type=Path, metavar="TRANSCRIPT")
    verify.add_argument("--json", action="store_true", help=_("print the report as JSON"))
    _lang_arg(verify)

    replay = commands.add_parser("replay", help=_("show a verified game step by step"))
    replay.add_argument("transcript", type=Path, metavar="TRANSCRIPT")
    replay.add_argument("--round", type=int, metavar="R", help=_("only round R (from 1)"))
    replay.add_argument(
        "--step",
        type=int,
        metavar="N",
        help=_("with --round: up to move N of the round (from 1), then every hand"),
    )
    replay.add_argument(
        "--all", action="store_true", help=_("on a terminal too, print it all without waiting")
    )
    replay.add_argument("--ascii", action="store_true", help=_("card suits as letters"))
    _lang_arg(replay)

    rules = commands.add_parser("rules", help=_("print the rules summary and the house rules"))
    rules.add_argument("--variant", choices=VARIANTS, help=_("one variant (default: all three)"))
    _lang_arg(rules)

    bench = commands.add_parser("bench", help=_("measure performance figures"))
    bench.add_argument("--json", action="store_true", help="print the figures as JSON")
    bench.add_argument(
        "--only",
        metavar="SECTION",
        help="run one section: engine, deck, peers, bots, verify or sim",
    )
    bench.add_argument(
        "--games", type=int, metavar="N", help="simulated games for the sim section (200)"
    )
    bench.add_argument(
        "--quick", action="store_true", help="small cases and few repetitions (a smoke test)"
    )
    bench.add_argument(
        "--long",
        action="store_true",
        help="sim section: a long absence (about the stall limit) in a tenth of the games",
    )
    for sub in commands.choices.values():  # a wrong option is reported with its command's usage
        sub.set_defaults(command_parser=sub)
    return parser


ARGPARSE_WORDS = (
    N_("usage: "),
    N_("%(prog)s: error: %(message)s\n"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("invalid %(type)s value: %(value)r"),
    N_("the following arguments are required: %s"),
    N_("expected one argument"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("unrecognized arguments: %s"),
    N_("positional arguments"),
    N_("options"),
    N_("show this help message and exit"),
    N_("show program's version number and exit"),
)
"""argparse's own words that a mistyped command line meets, in the catalogs: argparse
looks them up by these very strings, so they are translated like every other."""


@contextlib.contextmanager
def _argparse_in_language(argv: Sequence[str]) -> Iterator[None]:
    """While the command line is read: its errors in the language it asks for (the
    `--lang` it gives, else the locale's). argparse's lookup is restored after."""
    from p2p_rommy.i18n import LANGUAGES, default_language, use

    given = None
    for index, word in enumerate(argv):
        if word == "--lang" and index + 1 < len(argv):
            given = argv[index + 1]
        elif word.startswith("--lang="):
            given = word.split("=", 1)[1]
    language = LANGUAGE_ALIASES.get(given or "", given)
    use(language if language in LANGUAGES else default_language())
    words = vars(argparse)  # argparse's module globals: where its `_` is looked up
    looked_up = words.get("_")
    if looked_up is not None:
        words["_"] = _
    try:
        yield
    finally:
        if looked_up is not None:
            words["_"] = looked_up


def main(argv: Sequence[str] | None = None) -> int:
    for stream in (sys.stdout, sys.stderr):  # a cp1252 console or file: "?", no traceback
        console.tolerant(stream)
    with _argparse_in_language(sys.argv[1:] if argv is None else argv):
        parser = build_parser()  # its help in the language the command line asks for
        args, extra = parser.parse_known_args(argv)
        if extra:
            (getattr(args, "command_parser", None) or parser).error(
                _("unrecognized arguments: %s") % " ".join(extra)
            )
    if args.command is None:
        parser.print_help()
        return 0
    try:
        return _COMMANDS[args.command](args)
    except RommyError as error:
        print(printable(f"rommy: {_said(error)}"), file=sys.stderr)
        return 2
    except OSError as error:  # a file that cannot be read or written: say which, no traceback
        print(printable(f"rommy: {say_os_error(error)}"), file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130


def _said(error: RommyError) -> str:
    """An error as the player reads it: a network error from nobody in particular
    (the table, before any seat) is its reason alone, in the player's language."""
    if isinstance(error, ProtocolError) and error.sender is None and error.step is None:
        return say_reason(error.reason, quote_unknown=False)
    if isinstance(error, ProtocolError) and isinstance(error.sender, str):  # "the creator"
        who = say_reason(error.sender, quote_unknown=False)
        return f"{who}: {say_reason(error.reason, quote_unknown=False)}"
    # a checker's own reason (a seat's, a rule's), in the player's language
    return say_reason(str(error), quote_unknown=False)


def _simulate(args: argparse.Namespace) -> int:
    from p2p_rommy.bots import make_bot, parse_bots
    from p2p_rommy.narrate import score_sheet
    from p2p_rommy.simulate import play_match

    house = parse_assignments(args.house)
    rules = ruleset(args.variant, house)
    rules.check_players(args.players)
    kinds = parse_bots(args.bots, args.players)
    if not args.no_network:
        import asyncio

        from p2p_rommy.seat.loopback_match import simulate_network

        final, records, _keys = asyncio.run(
            simulate_network(
                args.variant, args.players, args.seed, house, args.transcript, bots=kinds
            )
        )
        names = [f"Bot {seat + 1}" for seat in range(args.players)]
        print(
            f"{rules.name} ({rules.variant}), {args.players} peers over TCP on 127.0.0.1, "
            f"seed {args.seed}, {len(records)} steps"
        )
        print(score_sheet(final, names))
        if args.transcript is not None:
            print(f"transcript: {args.transcript}")
        return 0
    if args.transcript is not None:
        print("rommy: --transcript needs the networked mode (drop --no-network)", file=sys.stderr)
        return 2
    rng = random.Random(args.seed)
    players = [make_bot(kind, random.Random(rng.getrandbits(64))) for kind in kinds]
    result = play_match(rules, players, rng, args.first_dealer % args.players)
    print(f"{rules.name} ({rules.variant}), {args.players} players, seed {args.seed}")
    names = [f"Seat {seat + 1} ({kind})" for seat, kind in enumerate(kinds)]
    print(score_sheet(result.final, names))
    return 0


def _rules(args: argparse.Namespace) -> int:
    from p2p_rommy.rules.summary import rules_summary

    _use_language(args)
    for index, variant in enumerate([args.variant] if args.variant else VARIANTS):
        if index:
            print()
        print(rules_summary(variant, _))
    return 0


def _bench(args: argparse.Namespace) -> int:
    from p2p_rommy.bench import as_json, format_table, run_bench

    figures = run_bench(args.only, quick=args.quick, games=args.games, long=args.long)
    if args.json:
        print(json.dumps(as_json(figures), indent=2, sort_keys=True))
    else:
        print(format_table(figures))
    return 0


def _seat_options(args: argparse.Namespace) -> SeatOptions:
    from p2p_rommy.frontends.tables import BOT_LEVELS
    from p2p_rommy.seat.opening import SeatOptions
    from p2p_rommy.seat.storage import default_data_dir

    _use_language(args)  # first: the errors below are in the player's language
    if args.bot is not None and args.bot not in BOT_LEVELS:
        raise ConfigError(
            _("--bot takes one of {levels}, not {given!r}").format(
                levels=", ".join(BOT_LEVELS), given=args.bot
            )
        )
    if args.bot is None and not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise ConfigError(_("the full-screen client needs a terminal; seat a bot with --bot"))
    if args.interface is not None:  # an address, said before anything listens on it
        from p2p_rommy.net.addresses import chosen

        chosen(args.interface)
    name = ""
    if hasattr(args, "name"):  # a resumed seat keeps the name in its game's config
        name = args.name or _default_name(_("Player"))
    data_dir = args.data_dir or default_data_dir()
    if args.bot is None:  # the full-screen client: nothing else may write to the terminal
        from p2p_rommy.seat.logfile import log_to_file

        log_to_file(data_dir)
        _use_theme(args)
    return SeatOptions(name, data_dir, args.interface, args.bot, args.ascii, args.four_colour)


def _table_given(args: argparse.Namespace) -> str | None:
    """The table's name, given as `rommy host NAME` or (the older form) `--table NAME`,
    the same for `join`; `ConfigError` if the two forms name different tables."""
    named, option = args.table, args.table_option
    if named is not None and option is not None and named != option:
        raise ConfigError(
            _("two table names given: {first!r} and {second!r}").format(first=named, second=option)
        )
    table: str | None = named if named is not None else option
    return table


def _host(args: argparse.Namespace) -> int:
    from p2p_rommy.frontends.tables import host_table, run

    options = _seat_options(args)
    table = _table_given(args)
    if table is None:
        raise ConfigError(_("a table needs a name: rommy host NAME (say, rommy host Fredag)"))
    house = parse_assignments(args.house)
    return run(host_table(options, table, args.variant, house, args.start_when))


def _join(args: argparse.Namespace) -> int:
    from p2p_rommy.frontends.tables import join_named_table, run

    options = _seat_options(args)
    return run(
        join_named_table(options, _table_given(args), args.connect, args.wait, creator=args.creator)
    )


def _resume(args: argparse.Namespace) -> int:
    from p2p_rommy.frontends.saved_games import the_unfinished_game
    from p2p_rommy.frontends.tables import resume_game, run
    from p2p_rommy.seat.opening import load_identity

    options = _seat_options(args)
    game = args.game
    if game is None:
        key = load_identity(options.data_dir).public_key
        game = the_unfinished_game(options.data_dir, key)
    return run(resume_game(options, game))


def _id(args: argparse.Namespace) -> int:
    from p2p_rommy.frontends.identity import identity_report
    from p2p_rommy.seat.storage import default_data_dir

    _use_language(args)
    print(printable(identity_report(args.data_dir or default_data_dir(), os.name == "nt")))
    return 0


def _tables(args: argparse.Namespace) -> int:
    from p2p_rommy.frontends.tables import list_tables, run

    _use_language(args)
    return run(list_tables(args.interface, args.wait))


def _doctor(args: argparse.Namespace) -> int:
    from p2p_rommy.doctor import doctor
    from p2p_rommy.net.addresses import chosen
    from p2p_rommy.seat.storage import default_data_dir

    _use_language(args)
    interface = None if args.interface is None else chosen(args.interface)
    return doctor(interface, args.data_dir or default_data_dir())


TRANSCRIPT_MAX_BYTES = 1 << 30
"""Largest transcript file read (1 GiB; a 7-round lp match is a few MB)."""


def regular_file(path: Path) -> int:
    """`path`'s size; `OSError` (with a reason) unless it is a regular file: a FIFO or
    `/dev/zero` must not be read forever. Checked before opening (opening a FIFO waits
    for a writer)."""
    import errno
    import stat

    status = os.stat(path)
    if not stat.S_ISREG(status.st_mode):
        raise OSError(errno.EINVAL, N_("not a regular file (a pipe or a device?)"))
    return status.st_size


def read_transcript_file(path: Path) -> bytes:
    """A transcript file's bytes, for `rommy replay` (which shows every step, so holds
    them); `OSError` for a non-regular file or one over `TRANSCRIPT_MAX_BYTES`."""
    import errno

    if regular_file(path) > TRANSCRIPT_MAX_BYTES:
        raise OSError(
            errno.EFBIG, N_("larger than {size} MiB").format(size=TRANSCRIPT_MAX_BYTES >> 20)
        )
    with open(path, "rb") as file:
        return file.read(TRANSCRIPT_MAX_BYTES + 1)


def _cannot_read(path: Path, error: OSError) -> None:
    said = _("cannot read {path}: {why}").format(path=path, why=say_os_error(error, False))
    print(printable(f"rommy: {said}"), file=sys.stderr)


def _unreadable(path: Path, error: Exception) -> None:
    said = _("{path} is not a readable transcript: {why}").format(
        path=path, why=say_reason(str(error))
    )
    print(printable(f"rommy: {said}"), file=sys.stderr)


def _verify(args: argparse.Namespace) -> int:
    from p2p_rommy.verify import UnreadableTranscript, verify_stream

    _use_language(args)
    try:
        regular_file(args.transcript)
        with open(args.transcript, "rb") as file:
            report = verify_stream(file)  # one record at a time
    except OSError as error:
        _cannot_read(args.transcript, error)
        return 2
    except UnreadableTranscript as error:
        _unreadable(args.transcript, error)
        return 2
    print(json.dumps(report.as_json(), indent=2) if args.json else printable(report.text()))
    return report.exit_code


def _replay(args: argparse.Namespace) -> int:
    from p2p_rommy.replay import replay
    from p2p_rommy.verify import UnreadableTranscript

    _use_language(args)
    if args.step is not None and (args.round is None or args.step < 1):
        raise ConfigError(_("--step N needs --round R, and N counts from 1"))
    try:
        data = read_transcript_file(args.transcript)
        ascii_only = args.ascii or not console.can_show(sys.stdout)  # cp1252 has no ♠
        replayed = replay(data, args.round, ascii_only, args.step)
    except OSError as error:
        _cannot_read(args.transcript, error)
        return 2
    except UnreadableTranscript as error:
        _unreadable(args.transcript, error)
        return 2
    step_by_step = not args.all and args.step is None and sys.stdin.isatty() and sys.stdout.isatty()
    for index, line in enumerate(replayed.lines):
        print(printable(line), flush=True)
        if step_by_step and index in replayed.pause_after:
            try:
                typed = input(_("(Enter: next; a: all the rest; q: stop) "))
            except EOFError:
                typed = "a"
            if typed.strip().lower() == "q":
                print(printable(replayed.lines[-1]))
                break
            step_by_step = typed.strip().lower() != "a"
    return 0 if replayed.status in ("fair", "incomplete") else 1


def _play(args: argparse.Namespace) -> int:
    import asyncio

    from p2p_rommy.bots import parse_bots
    from p2p_rommy.frontends.local import play

    _use_language(args)  # first: the errors below are in the player's language
    house = parse_assignments(args.house)
    ruleset(args.variant, house).check_players(args.bots + 1)
    bots = parse_bots(args.bot_level, args.bots)
    if not sys.stdin.isatty() or not sys.stdout.isatty():
        raise ConfigError(_("rommy play needs a terminal (for bots only: rommy simulate)"))
    name = args.name or _default_name(_("You"), machine=False)
    from p2p_rommy.seat.logfile import log_to_file
    from p2p_rommy.seat.storage import default_data_dir

    data_dir = args.data_dir or default_data_dir()
    log_to_file(data_dir)
    _use_theme(args)
    # asyncio.run, not `frontends.tables.run`: that module brings mDNS and the lobby, which
    # a table on this machine never uses (issue 27: the first hand soon)
    return asyncio.run(
        play(
            variant=args.variant,
            bots=bots,
            house=house,
            name=name,
            seed=args.seed,
            ascii_only=args.ascii,
            four_colour=args.four_colour,
            data_dir=data_dir,
        )
    )


_COMMANDS = {
    "play": _play,
    "replay": _replay,
    "verify": _verify,
    "simulate": _simulate,
    "rules": _rules,
    "bench": _bench,
    "host": _host,
    "join": _join,
    "resume": _resume,
    "tables": _tables,
    "id": _id,
    "doctor": _doctor,
}
