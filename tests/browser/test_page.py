#!/usr/bin/python3
"""The page in a real browser: headless Debian chromium driven by Debian's
python3-selenium against `hoyle serve`. Plays Go-Bang and checkers (a forced
double jump) against an agent by clicking, replays a stored tournament game
with the slider and the arrow keys, opens the ratings and the training
curves. Screenshots go to OUT_DIR/*.png.

usage: test_page.py HOYLE_BINARY OUT_DIR
Exit 77 (skipped) when chromium, chromedriver or selenium is missing, unless
HOYLE_REQUIRE_CHROMIUM=1."""
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"


def skip(why):
    if os.environ.get("HOYLE_REQUIRE_CHROMIUM") == "1":
        print(f"FAIL: {why} (HOYLE_REQUIRE_CHROMIUM=1)")
        sys.exit(1)
    print(f"SKIP: {why}")
    sys.exit(77)


try:
    from selenium import webdriver
    from selenium.common.exceptions import StaleElementReferenceException, TimeoutException
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select, WebDriverWait
except ImportError:
    skip("python3-selenium is not installed")
for prog in (CHROMIUM, CHROMEDRIVER):
    if not os.access(prog, os.X_OK):
        skip(f"{prog} is not installed")

HOYLE, OUT = sys.argv[1], sys.argv[2]
WEB = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "web")  # this checkout's page
if subprocess.run([HOYLE, "serve", "--help"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode != 0:
    skip(f"{HOYLE} has no serve command (built without libmicrohttpd?)")
os.makedirs(OUT, exist_ok=True)
failures = []


def check(cond, what):
    print(("ok: " if cond else "FAIL: ") + what, flush=True)
    if not cond:
        failures.append(what)
    return cond


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def make_data(root):
    """A tiny tournament record file and a training run folder."""
    cfg = os.path.join(os.path.dirname(root), os.path.basename(root) + ".yaml")  # outside --data
    with open(cfg, "w") as f:
        f.write('name: tiny\ngames: ["gobang(board=5,men=6)"]\nopenings:\n  gobang: random:2\n'
                "agents: [random, greedy]\n"
                "schedule: round-robin\nopenings_per_pairing: 2\ngames_per_opening: 1\n"
                f"max_moves: 60\nworkers: 1\nseed: 1\noutput: {root}/tiny.h5\n")
    subprocess.run([HOYLE, "tournament", cfg, "--quiet"], check=True, stdout=subprocess.DEVNULL)
    run = os.path.join(root, "run1")
    os.mkdir(run)
    with open(os.path.join(run, "train.csv"), "w") as f:
        f.write("generation,seconds,games,samples,steps,loss_policy,loss_value\n")
        for g in range(1, 6):
            f.write(f"{g},{10 * g},{8 * g},{300 * g},{50 * g},{2.0 / g:.3f},{0.9 - 0.1 * g:.3f}\n")
    with open(os.path.join(run, "elo.csv"), "w") as f:
        f.write("generation,seconds,elo,elo_low,elo_high\n0,0.0,0.0,0.0,0.0\n2,20.0,60.0,-20.0,140.0\n4,40.0,120.0,40.0,200.0\n")


def main():
    data = tempfile.mkdtemp(prefix="hoyle-web-")
    profile = tempfile.mkdtemp(prefix="hoyle-chromium-")  # outside --data
    make_data(data)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    log = open(os.path.join(OUT, "serve.log"), "w")
    server = subprocess.Popen([HOYLE, "serve", "--data", data, "--port", str(port), "--web", WEB], stdout=log, stderr=log)
    driver = None
    try:
        for _ in range(100):
            try:
                urllib.request.urlopen(base + "/api/version", timeout=1).read()
                break
            except OSError:
                if server.poll() is not None:
                    raise RuntimeError(f"hoyle serve exited with {server.returncode} (see {OUT}/serve.log)")
                time.sleep(0.1)
        opts = webdriver.ChromeOptions()
        opts.binary_location = CHROMIUM
        for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                  "--window-size=1400,1000", f"--user-data-dir={profile}"):
            opts.add_argument(a)
        driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=opts)
        driver.set_page_load_timeout(60)  # a loaded machine starts chromium slowly
        play_gobang(driver, base)
        default_agents(driver, base)
        play_checkers(driver, base)
        fanorona_chain(driver, base)
        other_renderers(driver, base)
        replay(driver, base, data + ".yaml")
        results(driver, base)
        errors = [e for e in driver.get_log("browser") if e.get("level") == "SEVERE" and e.get("source") != "network"] if hasattr(driver, "get_log") else []
        check(not errors, f"no errors in the browser console {errors[:3]}")
    finally:
        if driver:
            driver.quit()
        server.terminate()
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()
        log.close()
        shutil.rmtree(data, ignore_errors=True)
        shutil.rmtree(profile, ignore_errors=True)
        os.remove(data + ".yaml")
    print(f"screenshots in {OUT}")
    if failures:
        print(f"{len(failures)} failed")
        return 1
    print("all passed")
    return 0


def wait(driver, cond, what, timeout=15):
    try:
        return WebDriverWait(driver, timeout, poll_frequency=0.05).until(lambda d: cond(d))
    except TimeoutException:
        shot(driver, "timeout")
        raise AssertionError(f"timed out waiting for {what}; status: {status(driver)!r}; error: {error(driver)!r}")


def status(driver):
    return driver.find_element(By.ID, "status").text


def error(driver):
    e = driver.find_element(By.ID, "error")
    return e.text if e.is_displayed() else ""


def shot(driver, name):
    driver.execute_script("window.scrollTo(0, 0)")
    driver.save_screenshot(os.path.join(OUT, f"{name}.png"))


def set_input(driver, elem_id, value):
    e = driver.find_element(By.ID, elem_id)
    driver.execute_script("arguments[0].value = arguments[1]; arguments[0].dispatchEvent(new Event('change'));", e, value)


def new_game(driver, base, game, spec, agent, position=""):
    driver.get(base + "/#play")
    driver.refresh()  # a fresh page: a hash change alone keeps the last game's seats
    wait(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#game option")) > 0, "the game list")
    Select(driver.find_element(By.ID, "game")).select_by_value(game)
    set_input(driver, "spec", spec)
    wait(driver, lambda d: d.find_element(By.ID, "seats").get_attribute("data-spec") == spec, "the seats of the spec")
    check(len(driver.find_elements(By.CSS_SELECTOR, "#seats .seatkind")) == 2, "two seats")
    seats = driver.find_elements(By.CSS_SELECTOR, "#seats .seatspec")
    check(seats[0].get_attribute("value") == "human", "seat 1 is human by default")
    driver.execute_script("arguments[0].value = arguments[1];", seats[1], agent)
    driver.execute_script("arguments[0].value = arguments[1];", driver.find_element(By.ID, "position"), position)
    driver.execute_script("arguments[0].value = '100';", driver.find_element(By.ID, "think"))  # ms a reply
    driver.find_element(By.ID, "new").click()


def human_turn_or_over(driver):
    s = status(driver)
    if s.startswith("Game over"):
        return "over"
    if "(you) to move" in s and driver.find_elements(By.CSS_SELECTOR, "#board .zone.from, #board .zone.to"):
        return "turn"
    if error(driver):
        return "error"
    return None


def click_move(driver):
    """Click one legal move: a highlighted from-square, then targets until the move is sent."""
    before = len(driver.find_elements(By.CSS_SELECTOR, "#history li"))
    for _ in range(8):
        targets = driver.find_elements(By.CSS_SELECTOR, "#board .zone.to") or driver.find_elements(By.CSS_SELECTOR, "#board .zone.from")
        if not targets:
            break
        try:
            targets[0].click()
        except StaleElementReferenceException:
            continue  # the board was drawn again meanwhile
        time.sleep(0.05)
        if len(driver.find_elements(By.CSS_SELECTOR, "#history li")) > before or status(driver).startswith("Game over"):
            return True
        choice = driver.find_elements(By.CSS_SELECTOR, "#choices button")
        if choice:
            choice[0].click()
    return len(driver.find_elements(By.CSS_SELECTOR, "#history li")) > before


def play_gobang(driver, base):
    new_game(driver, base, "gobang", "gobang(board=5,men=6,move_limit=16)", "mcts(sims=50)")
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#board svg.gobang"), "the Go-Bang board")
    check(not error(driver), f"new Go-Bang game without error ({error(driver)})")
    title = driver.find_element(By.ID, "status").get_attribute("title")
    check("mcts(sims=50," in title and "select=" in title, f"the status line's tooltip holds the full agent spec ({title[:80]!r})")
    check(len(driver.find_elements(By.CSS_SELECTOR, "#board .zone.from")) == 25, "25 empty squares highlighted at the start")
    moves = 0
    while moves < 60:
        state = wait(driver, human_turn_or_over, "the human's turn or the end")
        if state != "turn":
            break
        if moves == 2:
            shot(driver, "gobang_play")
        check(click_move(driver), f"Go-Bang move {moves + 1} played by clicking") or None
        moves += 1
        if moves == 1:
            wait(driver, lambda d: "(mcts(sims=50)) to move" in status(d) or human_turn_or_over(d), "the agent's turn")
            s = status(driver)
            check(len(s) < 70, f"the status line names the agent as typed, not its 300-character spec ({s!r})")
    check(status(driver).startswith("Game over"), f"the Go-Bang game ends ({status(driver)!r} after {moves} clicks)")
    hist = [li.text for li in driver.find_elements(By.CSS_SELECTOR, "#history li")]
    check(len(hist) >= 9, f"the history lists the moves ({len(hist)})")
    check("value" in driver.find_element(By.ID, "info").text, "the agent's search summary is shown")
    stones = driver.find_elements(By.CSS_SELECTOR, "#board .stone")
    check(len(stones) >= 9, f"stones on the board ({len(stones)})")
    shot(driver, "gobang_end")


def play_checkers(driver, base):
    # Black (seat 1, the human) must take 14x23x32: a double jump, clicked step by step
    new_game(driver, base, "checkers", "checkers", "mcts(sims=50)", "B:W18,21,27,30:B1,2,3,14")
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#board svg.checkers"), "the checkers board")
    check(not error(driver), f"new checkers game from a position ({error(driver)})")
    froms = [z.get_attribute("data-sq") for z in driver.find_elements(By.CSS_SELECTOR, "#board .zone.from")]
    check(froms == ["14"], f"only the jumping man is highlighted ({froms})")
    check(status(driver).startswith("Black (you)"), f"Black is to move ({status(driver)!r})")
    fill = driver.execute_script("return getComputedStyle(document.querySelector('#board .man.black')).fill")
    rgb = [int(x) for x in fill[fill.index("(") + 1:fill.index(")")].split(",")[:3]]
    check(max(rgb) < 80, f"Black's men are drawn black, as the label says ({fill})")
    driver.find_element(By.CSS_SELECTOR, '#board [data-sq="14"]').click()
    tos = [z.get_attribute("data-sq") for z in driver.find_elements(By.CSS_SELECTOR, "#board .zone.to")]
    check(tos == ["23"], f"the jump's landing square is highlighted ({tos})")
    driver.find_element(By.CSS_SELECTOR, '#board [data-sq="23"]').click()
    wait(driver, lambda d: "continue" in status(d) and d.find_elements(By.CSS_SELECTOR, '#board .zone.to[data-sq="32"]'), "the chain's next step")
    check(len(driver.find_elements(By.CSS_SELECTOR, "#board .man.captured")) == 1, "the jumped man is shown as captured mid-chain")
    shot(driver, "checkers_chain")
    driver.find_element(By.CSS_SELECTOR, '#board [data-sq="32"]').click()
    wait(driver, lambda d: any("14x23x32" in li.text for li in d.find_elements(By.CSS_SELECTOR, "#history li")), "the double jump in the history")
    moves = 1
    while moves < 12:
        state = wait(driver, human_turn_or_over, "the human's turn or the end")
        if state != "turn":
            break
        check(click_move(driver), f"checkers move {moves + 1} played by clicking")
        moves += 1
    check(not error(driver), f"no error while playing checkers ({error(driver)})")
    check(len(driver.find_elements(By.CSS_SELECTOR, "#board .crown")) >= 1, "the crowned man is drawn as a king")
    # undo goes back to the human's turn
    wait(driver, human_turn_or_over, "the human's turn or the end")
    n = len(driver.find_elements(By.CSS_SELECTOR, "#history li"))
    if not status(driver).startswith("Game over"):
        driver.find_element(By.ID, "undo").click()
        wait(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#history li")) < n and "(you) to move" in status(d), "undo")
    shot(driver, "checkers")
    # export as PDN
    Select(driver.find_element(By.ID, "exportfmt")).select_by_value("pdn")
    driver.find_element(By.ID, "export").click()
    wait(driver, lambda d: d.find_element(By.ID, "exporttext").get_attribute("value"), "the exported game")
    check("14x23x32" in driver.find_element(By.ID, "exporttext").get_attribute("value"), "the PDN export holds the double jump")
    Select(driver.find_element(By.ID, "exportfmt")).select_by_value("hoyle")
    driver.find_element(By.ID, "export").click()
    wait(driver, lambda d: "position: B:W18,21,27,30:B1,2,3,14" in d.find_element(By.ID, "exporttext").get_attribute("value"), "the hoyle export with the start position")


def default_agents(driver, base):
    """The kinds' defaults (`mcts`, `alphabeta`: no sims, depth or time_ms) answer within 2 s, and
    the page says how long they think."""
    for kind in ("mcts", "alphabeta"):
        driver.get(base + "/#play?game=checkers")
        driver.refresh()  # a fresh page: no agent time, no seats kept from the last game
        wait(driver, lambda d: (d.find_element(By.ID, "seats").get_attribute("data-spec") or "") == "checkers", "checkers' seats")
        kinds = driver.find_elements(By.CSS_SELECTOR, "#seats .seatkind")
        Select(kinds[0]).select_by_value(kind)
        Select(kinds[1]).select_by_value("human")
        check(driver.find_elements(By.CSS_SELECTOR, "#seats .seatspec")[0].get_attribute("value") == kind, f"seat 1 is the default {kind}")
        check(driver.find_element(By.ID, "think").get_attribute("value") == "", "no agent time set: the defaults")
        note = driver.find_elements(By.CSS_SELECTOR, "#seats .thinks")[0].text
        check("1 s a move" in note, f"the page says how long the default {kind} thinks ({note!r})")
        driver.execute_script("performance.clearResourceTimings()")
        driver.find_element(By.ID, "new").click()
        wait(driver, lambda d: "(you) to move" in status(d) and d.find_elements(By.CSS_SELECTOR, "#history li"), f"the default {kind}'s first move", 20)
        # the agent request's own time, from the browser's resource timing (the test's polling left out)
        took = driver.execute_script("return performance.getEntriesByType('resource').filter((e) => e.name.endsWith('/agent')).map((e) => e.duration)")
        check(len(took) == 1 and took[0] < 8000, f"the default {kind} (1 s a move) answers within 8 s, load allowing ({took} ms)")
        info = driver.find_element(By.ID, "info").text
        check(kind in info, f"its search summary is shown ({info!r})")


def fanorona_chain(driver, base):
    """A Fanorona capture chain as it happens: the men taken so far greyed, the path drawn, the
    piece preselected and its next landing point highlighted."""
    driver.get(base + "/#play?game=fanorona")
    wait(driver, lambda d: (d.find_element(By.ID, "seats").get_attribute("data-spec") or "").startswith("fanorona"), "fanorona's seats")
    for e in driver.find_elements(By.CSS_SELECTOR, "#seats .seatspec"):
        driver.execute_script("arguments[0].value = 'human';", e)
    driver.execute_script("arguments[0].value = arguments[1];", driver.find_element(By.ID, "position"),
                          "bb.b.bbbb/bbb.b.bbb/bwbwwbb../wwww..w.w/wwwwwwww. w")
    driver.find_element(By.ID, "new").click()
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, '#board svg.fanorona [data-sq="C4"].from'), "C4 highlighted")
    driver.find_element(By.CSS_SELECTOR, '#board [data-sq="C4"]').click()
    driver.find_element(By.CSS_SELECTOR, '#board [data-sq="B4"]').click()
    for b in driver.find_elements(By.CSS_SELECTOR, "#choices button"):
        if b.text.endswith("A"):
            b.click()  # approach (C4-B4 may also withdraw)
            break
    wait(driver, lambda d: "continue" in status(d), "the chain in progress")
    check(len(driver.find_elements(By.CSS_SELECTOR, "#board .man.captured")) >= 1, "the man the first capture took is shown greyed")
    check(bool(driver.find_elements(By.CSS_SELECTOR, "#board polyline.path")), "the chain's path is drawn")
    tos = [z.get_attribute("data-sq") for z in driver.find_elements(By.CSS_SELECTOR, "#board .zone.to")]
    check(len(tos) >= 1, f"the chain's next landing point is highlighted ({tos})")
    shot(driver, "fanorona_chain")


def other_renderers(driver, base):
    """Each other game drawn by its renderer (not the text fallback) and one move clicked."""
    for game, cls in (("chess", "chess"), ("backgammon", "backgammon"), ("fanorona", "fanorona"),
                      ("foxgeese", "foxgeese"), ("solitaire", "solitaire"), ("fifteen", "fifteen")):
        driver.get(base + f"/#play?game={game}")
        wait(driver, lambda d: (d.find_element(By.ID, "seats").get_attribute("data-spec") or "").startswith(game), f"{game}'s seats")
        for e in driver.find_elements(By.CSS_SELECTOR, "#seats .seatspec"):
            driver.execute_script("arguments[0].value = 'human';", e)
        driver.find_element(By.ID, "new").click()
        wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, f"#board svg.{cls}") and "(you) to move" in status(d), f"the {game} board")
        check(not driver.find_elements(By.CSS_SELECTOR, "#board pre.textboard"), f"{game} is drawn by its renderer")
        check(click_move(driver), f"a {game} move played by clicking")
        if game == "backgammon":
            pips = [t.text for t in driver.find_elements(By.CSS_SELECTOR, "#board .pipcount")]
            check(len(pips) == 2 and all(p.split()[-1].isdigit() for p in pips), f"both pip counts are shown ({pips})")
        if game in ("backgammon", "fanorona"):
            shot(driver, game)


def replay(driver, base, cfg):
    driver.get(base + "/#replay")
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, '#files tr[data-name="tiny.h5"] a.open-records'), "tiny.h5 in the file list")
    check(bool(driver.find_elements(By.CSS_SELECTOR, '#files tr[data-name="run1"]')), "the run folder is listed")
    driver.find_element(By.CSS_SELECTOR, '#files tr[data-name="tiny.h5"] a.open-records').click()
    wait(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#recgames tr[data-index]")) == 4, "the four stored games")
    driver.find_element(By.CSS_SELECTOR, '#recgames tr[data-index="1"]').click()
    wait(driver, lambda d: d.find_element(By.ID, "rply").text.startswith("0 /") and
         d.find_elements(By.CSS_SELECTOR, "#recgames tr.selected[data-index='1']"), "game 1 opened")
    total = int(driver.find_element(By.ID, "rply").text.split("/")[1])
    check(total >= 9, f"the stored game has its moves ({total})")
    board0 = driver.find_element(By.ID, "rboard").get_attribute("innerHTML")
    stones0 = len(driver.find_elements(By.CSS_SELECTOR, "#rboard .stone"))
    body = driver.find_element(By.TAG_NAME, "body")
    for _ in range(3):
        body.send_keys(Keys.ARROW_RIGHT)
    check(driver.find_element(By.ID, "rply").text == f"3 / {total}", "three right arrows step to move 3")
    check(len(driver.find_elements(By.CSS_SELECTOR, "#rboard .stone")) == stones0 + 3, "three more stones after three placements")
    check(driver.find_element(By.ID, "rboard").get_attribute("innerHTML") != board0, "the board changed")
    body.send_keys(Keys.ARROW_LEFT)
    check(driver.find_element(By.ID, "rply").text == f"2 / {total}", "the left arrow steps back")
    slider = driver.find_element(By.ID, "slider")
    driver.execute_script("arguments[0].value = arguments[1]; arguments[0].dispatchEvent(new Event('input'));", slider, total)
    check(driver.find_element(By.ID, "rply").text == f"{total} / {total}", "the slider goes to the end")
    slider.send_keys(Keys.ARROW_LEFT)
    check(driver.find_element(By.ID, "rply").text == f"{total - 1} / {total}", "the arrow key on the slider steps once")
    # at 1024 px wide: the board beside the game list and the moves, nothing overlaps, no sideways scroll
    driver.set_window_size(1024, 768)
    time.sleep(0.3)
    rect = lambda sel: driver.execute_script("const r = document.querySelector(arguments[0]).getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom];", sel)
    board, moves, games = rect("#rboard svg"), rect("#rmoves"), rect("#view-replay .scrollbox")
    apart = lambda a, b: a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]
    check(apart(board, moves) and apart(board, games) and apart(moves, games),
          f"at 1024 px the board, the moves and the game list do not overlap ({board}, {moves}, {games})")
    check(board[1] < 200 and board[3] <= 768, f"at 1024 px the board is at the top, in the window ({board})")
    width = driver.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
    check(width[0] <= width[1], f"at 1024 px no sideways scrolling ({width})")
    shot(driver, "replay_1024")
    driver.set_window_size(1400, 1000)
    shot(driver, "replay")
    # live: the tournament resumed with more games; the page polls the file
    driver.find_element(By.ID, "live").click()
    subprocess.run([HOYLE, "tournament", cfg, "--quiet", "--set", "openings_per_pairing=3"], check=True, stdout=subprocess.DEVNULL)
    wait(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#recgames tr[data-index]")) == 6, "the live view to list the new games", 10)
    check(True, "the live view lists the games added while the page was open")


def results(driver, base):
    driver.get(base + "/#replay")
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, '#files tr[data-name="tiny.h5"] a'), "the file list")
    links = [a for a in driver.find_elements(By.CSS_SELECTOR, '#files tr[data-name="tiny.h5"] a') if a.text == "ratings"]
    links[0].click()
    wait(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#elotable tr")) == 3, "the Elo table")
    check(driver.find_element(By.ID, "view-results").is_displayed(), "the results view is shown")
    names = [td.text for td in driver.find_elements(By.CSS_SELECTOR, "#elotable tr td:nth-child(2)")]
    check(sorted(names) == ["greedy", "random"], f"the Elo table lists the two agents ({names})")
    check(len(driver.find_elements(By.CSS_SELECTOR, "#crosstable tr")) == 3, "the cross table has a row per agent")
    check(len(driver.find_elements(By.CSS_SELECTOR, "#openingtable tr")) >= 2, "the first player's score by opening")
    set_input(driver, "rundir", "run1")
    driver.find_element(By.CSS_SELECTOR, "#runform button").click()
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#curves svg.plot"), "the training curves")
    titles = [t.text for t in driver.find_elements(By.CSS_SELECTOR, "#curves svg.plot .title")]
    check("Losses" in titles, f"a loss plot ({titles})")
    check(len(driver.find_elements(By.CSS_SELECTOR, "#curves svg.plot path.series")) >= 2, "one line per loss column")
    shot(driver, "ratings")
    set_input(driver, "ratingsfile", "../etc/passwd")
    # scrolled down, as a user with a long page is: the error must still be in the window
    driver.set_window_size(1024, 500)
    driver.execute_script("window.scrollTo(0, document.documentElement.scrollHeight)")
    scrolled = driver.execute_script("return window.scrollY")
    check(scrolled > 100, f"the page is scrolled down before the error ({scrolled} px)")
    driver.execute_script("document.querySelector('#ratingsform button').click()")
    wait(driver, lambda d: error(d), "the error line for a path outside --data")
    check("\n" not in error(driver), f"the error is one line ({error(driver)!r})")
    r = driver.execute_script("const r = document.getElementById('error').getBoundingClientRect(); return [r.top, r.bottom, window.innerHeight];")
    check(r[0] >= 0 and r[1] <= r[2] and r[1] > r[0], f"the error is visible in the window, not off-screen ({r})")
    driver.save_screenshot(os.path.join(OUT, "error_scrolled.png"))
    driver.set_window_size(1400, 1000)


if __name__ == "__main__":
    sys.exit(main())
