# gnubg_bridge.py - a line protocol over GNU Backgammon, for hoyle's gnubg client.
#
# Run as:  gnubg -t -q -r -p gnubg_bridge.py   (the C client embeds this file,
# writes it to a temporary file and starts gnubg on it; see gnubg_client.h).
#
# Output channel: at start the script keeps a private dup of the original stdout
# and points fd 1 at /dev/null, so gnubg's own chatter (board diagrams, "The dice
# have been set to ...") never reaches the client. Every protocol line is written
# to the private fd, one line per reply, flushed at once. stdin is read line by line.
# gnubg prints its banner to stdout before it runs this script, so a client skips
# lines until the "ready" line; after that every line is a reply.
#
# Protocol (one request per line, whitespace-separated tokens):
#   (startup)               -> "ready gnubg-bridge 1"
#   plays ID D1 D2          -> "ok N ID1 ... IDN"  the legal plays for roll D1 D2, each as
#                              the position ID after the play, sorted ascending, no duplicates
#                              (N = 0: no legal play)
#   best ID D1 D2 PLIES     -> "ok ID'"  the play gnubg picks at PLIES (0..3) with its
#                              default move filters: cubeless money game, gammons and
#                              backgammons counted (Jacoby off), deterministic, no noise;
#                              "ok none" when there is no legal play
#   quit  (or end of input) -> exits, no reply
#   anything else / bad arg -> "err <one-line reason>", and the bridge keeps going
#
# Perspective: ID is a gnubg position ID (14 characters). Its board (b0, b1), as
# gnubg.positionfromid() returns it, has b1 = the player ON ROLL and b0 = the other;
# each is 25 counts from that player's own 1-point (index 0) to his 24-point (index 23),
# index 24 = his bar. Result IDs keep the same perspective: the mover stays in b1
# (no side swap). Mover point p is the opponent's point 25 - p (index 24 - p).
# gnubg moves are (from, to) pairs in the mover's 1-based points, 25 = bar, 0 = off.
import os
import sys

import gnubg

PROTOCOL = "gnubg-bridge 1"
MAX_PLIES = 3
MAX_HINT_MOVES = 100000  # hint(n) shows at most n plays; far above any legal count
RESET_EVERY = 200  # gnubg records every "set board" in its game: start afresh this often

_requests = 0

_out_fd = os.dup(1)
_null_fd = os.open(os.devnull, os.O_WRONLY)
os.dup2(_null_fd, 1)
os.close(_null_fd)
sys.stdout = open(os.devnull, "w")


def reply(line):
    data = (" ".join(line.split()) + "\n").encode("ascii", "replace")
    while data:
        data = data[os.write(_out_fd, data):]


class BadInput(Exception):
    pass


def setup():
    for cmd in ("set display off", "set player 0 human", "set player 1 human",
                "set jacoby off", "set automatic roll off", "set automatic game off",
                "set evaluation chequerplay evaluation plies 0",
                "set evaluation chequerplay evaluation cubeful off",
                "set evaluation chequerplay evaluation noise 0",
                "new game"):
        gnubg.command(cmd)


def parse_board(pid):
    try:
        board = gnubg.positionfromid(pid)
    except Exception:
        raise BadInput("bad position ID '%s'" % pid)
    b0, b1 = list(board[0]), list(board[1])
    if gnubg.positionid((tuple(b0), tuple(b1))) != pid:
        raise BadInput("position ID '%s' is not canonical" % pid)
    if sum(b0) > 15 or sum(b1) > 15:
        raise BadInput("position ID '%s' has more than 15 checkers a side" % pid)
    if sum(b0) == 0 or sum(b1) == 0:
        raise BadInput("position ID '%s' is a finished game" % pid)
    for i in range(24):
        if b1[i] and b0[23 - i]:
            raise BadInput("position ID '%s': both sides on point %d" % (pid, i + 1))
    return b0, b1


def parse_die(tok):
    if tok not in ("1", "2", "3", "4", "5", "6"):
        raise BadInput("bad die '%s'" % tok)
    return int(tok)


def set_position(pid, d1, d2):
    """Makes gnubg's current position PID with the b1 player on roll and dice D1 D2."""
    global _requests
    _requests += 1
    if _requests % RESET_EVERY == 0:
        gnubg.command("new game")  # drops the game record, which otherwise grows without bound
    for attempt in range(2):
        gnubg.command("set board " + pid)
        gnubg.command("set dice %d %d" % (d1, d2))
        if gnubg.positionid() == pid:
            return
        gnubg.command("new game")  # e.g. the last position ended the game
    raise BadInput("gnubg did not accept position '%s'" % pid)


def apply_move(b0, b1, pairs):
    """The position ID after the mover (b1) plays PAIRS, hits sent to b0's bar."""
    m, o = list(b1), list(b0)
    for frm, to in pairs:
        if not 1 <= frm <= 25 or not 0 <= to < frm or m[frm - 1] <= 0:
            raise BadInput("gnubg move %r does not fit the board" % (pairs,))
        m[frm - 1] -= 1
        if to > 0:
            m[to - 1] += 1
            if o[24 - to] == 1:
                o[24 - to] = 0
                o[24] += 1
            elif o[24 - to] > 1:
                raise BadInput("gnubg move %r lands on a made point" % (pairs,))
    return gnubg.positionid((tuple(o), tuple(m)))


_plies = 0  # the chequerplay plies gnubg is set to


def hint(plies, count):
    """gnubg's ranked plays for the current position and dice, evaluated at PLIES."""
    global _plies
    if plies != _plies:
        gnubg.command("set evaluation chequerplay evaluation plies %d" % plies)
        _plies = plies
    return (gnubg.hint(count) or {}).get("hint", [])


def cmd_plays(args):
    if len(args) != 3:
        raise BadInput("usage: plays ID D1 D2")
    b0, b1 = parse_board(args[0])
    d1, d2 = parse_die(args[1]), parse_die(args[2])
    set_position(args[0], d1, d2)
    # At 0 plies hint scores and lists every legal play (no move filter applies).
    ids = set(apply_move(b0, b1, gnubg.parsemove(h["move"])) for h in hint(0, MAX_HINT_MOVES))
    ids = sorted(ids)
    return "ok %d%s" % (len(ids), "".join(" " + i for i in ids))


def cmd_best(args):
    if len(args) != 4:
        raise BadInput("usage: best ID D1 D2 PLIES")
    b0, b1 = parse_board(args[0])
    d1, d2 = parse_die(args[1]), parse_die(args[2])
    if not args[3].isdigit() or int(args[3]) > MAX_PLIES:
        raise BadInput("bad plies '%s' (0..%d)" % (args[3], MAX_PLIES))
    set_position(args[0], d1, d2)
    # hint's top play is gnubg.findbestmove()'s play (same evaluation and move
    # filters), but findbestmove leaks its move list (~20 KB a call in 1.07).
    top = hint(int(args[3]), 1)
    if not top:
        return "ok none"
    return "ok " + apply_move(b0, b1, gnubg.parsemove(top[0]["move"]))


COMMANDS = {"plays": cmd_plays, "best": cmd_best}


def main():
    setup()
    reply("ready " + PROTOCOL)
    while True:
        line = sys.stdin.readline()
        if not line:
            break
        toks = line.split()
        if not toks:
            reply("err empty request")
            continue
        if toks[0] == "quit":
            break
        fn = COMMANDS.get(toks[0])
        try:
            if fn is None:
                raise BadInput("unknown request '%s'" % toks[0][:40])
            reply(fn(toks[1:]))
        except BadInput as e:
            reply("err " + str(e))
        except Exception as e:  # a gnubg failure must not kill the bridge
            reply("err internal: %s: %s" % (type(e).__name__, e))
    os._exit(0)  # skip gnubg's interactive loop and its exit chatter


main()
