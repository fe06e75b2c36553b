#!/usr/bin/env bash
# `hoyle play` with a person at a terminal (a pseudo-terminal from python3's
# pty module): the position the person must move from is on the screen
# before every prompt — the first one, and again after the agent's reply
# (board, player to move, dice, last move), once — also with --quiet;
# 'board' draws it again. Reads the screen before typing, as a person would.
# usage: play_tty.sh HOYLE_BINARY
set -u
H="$1"
. "$(dirname "$0")/lib.sh"
if ! command -v python3 >/dev/null; then
  [ -n "${CI:-}" ] && fail "python3 is missing (scripts/install-deps installs it)"
  skip "no python3"
fi
python3 - "$H" <<'EOF'
import os, pty, re, select, sys, time

hoyle = sys.argv[1]
PROMPT = re.compile(r"move \(player \d\)> $")


def fail(msg, screen=""):
    print("FAIL: " + msg)
    if screen:
        print("---- screen ----\n" + screen + "\n----------------")
    sys.exit(1)


class Game:
    """One `hoyle play` under a pseudo-terminal."""

    def __init__(self, *args):
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            os.execv(hoyle, [hoyle, "play", *args])
        self.seen = ""

    def until_prompt(self, what, timeout=20):
        """The text printed since the last call, up to and including a prompt."""
        start, deadline = len(self.seen), time.time() + timeout
        while not PROMPT.search(self.seen[start:]):
            left = deadline - time.time()
            if left <= 0 or not select.select([self.fd], [], [], left)[0]:
                fail("no prompt " + what, self.seen[start:])
            try:
                data = os.read(self.fd, 4096)
            except OSError:
                data = b""
            if not data:
                fail("the game ended before the prompt " + what, self.seen[start:])
            self.seen += data.decode("utf-8", "replace").replace("\r\n", "\n")
        return self.seen[start:]

    def type(self, line):
        os.write(self.fd, (line + "\n").encode())

    def finish(self):
        deadline = time.time() + 20
        while time.time() < deadline:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                return os.waitstatus_to_exitcode(status)
            try:
                if select.select([self.fd], [], [], 0.2)[0]:
                    os.read(self.fd, 4096)
            except OSError:
                pass
        os.kill(self.pid, 9)
        fail("the game did not stop after quit")


def board_before_prompt(screen, what):
    """The screen before a prompt ends with the gobang board and its lines."""
    if screen.count("a b c d e f g h") > 1 and "player 1 (human) plays" not in screen:
        fail("the board is drawn twice before the prompt " + what, screen)
    tail = screen[screen.rfind(" 8  "):] if " 8  " in screen else ""
    if not tail or "a b c d e f g h" not in tail or "to place" not in tail:
        fail("no board before the prompt " + what, screen)
    return tail


for quiet in ([], ["--quiet"]):
    what = "(gobang%s)" % (" --quiet" if quiet else "")
    g = Game("gobang", "--p2", "greedy", *quiet)
    # 1. the first prompt: the start position, White to place, no last move
    screen = g.until_prompt("at the start " + what)
    tail = board_before_prompt(screen, "at the start " + what)
    if "White (x) to place" not in tail or "last move" in tail or " x " in tail.split("a b c")[0]:
        fail("the first board is not the start position " + what, screen)
    # 2. a move; after the agent's reply the board shows both stones and the reply
    g.type("e5")
    screen = g.until_prompt("after the agent's reply " + what)
    m = re.search(r"player 2 \(greedy\) plays ([a-h][1-8])", screen)
    if not m:
        fail("the agent's reply is not reported " + what, screen)
    reply = m.group(1)
    tail = board_before_prompt(screen[m.end():], "after the agent's reply " + what)
    rows = {l.split()[0]: l for l in tail.splitlines() if re.match(r"^ [1-8]  ", l)}
    col = lambda sq: rows[sq[1]].split()[1 + "abcdefgh".index(sq[0])]
    if col("e5") != "x" or col(reply) != "o":
        fail("the board before the second prompt misses e5 or %s %s" % (reply, what), screen)
    if "White (x) to place" not in tail or ("last move: player 2 %s" % reply) not in tail:
        fail("no player to move or last move before the second prompt " + what, screen)
    # 3. 'board' draws it again; an illegal move re-prompts without a new board
    g.type("board")
    again = g.until_prompt("after 'board' " + what)
    if board_before_prompt(again, "after 'board' " + what) != tail:
        fail("'board' did not redraw the same position " + what, again)
    g.type("zz9")
    again = g.until_prompt("after an illegal move " + what)
    if "illegal move 'zz9'" not in again:
        fail("the illegal move is not reported " + what, again)
    g.type("quit")
    rc = g.finish()
    if rc != 0:
        fail("quit should exit 0, got %d %s" % (rc, what))

# backgammon: the human is shown the dice before the first prompt, whoever
# won the opening roll, and after the agent's reply
g = Game("backgammon", "--p2", "random", "--seed", "1")
screen = g.until_prompt("at the start (backgammon)")
if not re.search(r"X to play [1-6][1-6]\n(.*\n)*move \(player 1\)> $", screen):
    fail("no board with the dice before the first prompt (backgammon)", screen)
g.type("quit")
if g.finish() != 0:
    fail("backgammon quit should exit 0")
print("play_tty: ok")
EOF
