"""Issue 39, item 6 and part of item 7, in Chromium on the repository's own site: seeded hostile
progress files (tests/js/hostile-progress.js, the generator the node tests use too) imported through
the page's import control against real progress; no accepted file loses a real rating or leaves a
question that cannot be rated, after a reload too. And "Clear all progress" clears the copies set
aside and the mock interview's recordings as well. The seed is printed in every failure; set
HOSTILE_SEED to try another."""

from __future__ import annotations

import json
import os
import re
import subprocess
from collections.abc import Callable
from pathlib import Path

from playwright.sync_api import Page, expect

from helpers import ROOT

from .progress_api import with_progress

KEY = "pytorch-interview-questions.progress"
ASIDE = KEY + ".set-aside"
MOCK_SESSIONS = "pytorch-interview-questions.mock-sessions"
SEED = int(os.environ.get("HOSTILE_SEED", "39"))
COUNT = 150  # 10 of each of the generator's 15 kinds
UI_EVERY = 50  # a reload and a rating through the page after every 50th import
REAL = ("export/graph-signature", "compile/graph-breaks", "distributed/ddp")


def practise(page: Page, rating: str) -> None:
    page.get_by_role("button", name="Practise this question").click()
    page.get_by_role("button", name="Reveal the short answer").click()
    page.locator(".practice-panel").get_by_role("button", name=rating, exact=True).click()
    expect(page.locator(".practice-result")).not_to_be_empty()


# What a reload would read, checked in the page with its own rules and scheduler: the stored value
# reads back whole (nothing to set aside), the real ratings and the interview date are there (a
# real rating may only be replaced by a newer one, never one dated ahead of now), and every
# question can be rated three ways, each giving an entry the rules keep.
CHECK = with_progress("""async ([real, key, aside]) => {
    const core = await import(new URL('progress-core.js', base).href);
    const fsrs = await InterviewProgress.loadScheduler();
    const now = new Date(), problems = [];
    const setAside = localStorage.getItem(aside);
    if (setAside !== null) problems.push('something was set aside: ' + setAside.slice(0, 300));
    const read = core.readValue(JSON.parse(localStorage.getItem(key)), now);
    if (read.kind !== 'ok') return problems.concat(['the stored value is ' + read.kind]);
    read.rejected.forEach((r) => problems.push('a reload sets aside ' + r.question + ': ' + r.reason));
    if (read.value.interview !== real.interview) {
      problems.push('the interview date became ' + read.value.interview);
    }
    for (const [id, mine] of Object.entries(real.questions)) {
      const kept = read.value.questions[id];
      if (!kept) { problems.push(id + ' was lost'); continue; }
      if (Date.parse(kept.rated) < Date.parse(mine.rated)) problems.push(id + ' went back to ' + kept.rated);
      if (Date.parse(kept.rated) > now.getTime()) problems.push(id + ' is rated ahead of now');
      for (const title of Object.keys(mine.followups)) {
        if (!kept.followups[title]) problems.push(id + ' lost its follow-up ' + title);
      }
    }
    const ids = Object.keys(read.value.questions);
    ids.filter((id, i) => i < 12 || id in real.questions).forEach((id) => {
      for (const rating of ['got-it', 'review', 'not-yet']) {
        try {
          const next = scheduling.schedule(read.value.questions[id], rating, now, read.value.interview, fsrs);
          const back = core.checkEntry(id, JSON.parse(JSON.stringify(next)), now.getTime());
          if (typeof back === 'string') problems.push(id + ' rated ' + rating + ' is set aside: ' + back);
        } catch (error) { problems.push(id + ' cannot be rated ' + rating + ': ' + error); }
      }
    });
    return problems;
}""")


def real_progress(page: Page) -> dict:
    """Real ratings: one through the page, the others through the storage API, with a follow-up and
    an interview date."""
    practise(page, "Review")
    expect(page.locator(".practice-result")).to_contain_text("Saved: review.")
    page.evaluate(with_progress("""async () => { await InterviewProgress.loadScheduler();
        InterviewProgress.rate('compile/graph-breaks', 'got-it');
        InterviewProgress.rateFollowUp('compile/graph-breaks', 'Why does it break?', 'review');
        InterviewProgress.rate('distributed/ddp', 'not-yet');
        InterviewProgress.setInterview('2026-12-20'); }"""))
    value = json.loads(page.evaluate("key => localStorage.getItem(key)", KEY))
    assert sorted(value["questions"]) == sorted(REAL) and value["interview"] == "2026-12-20"
    return value


def test_hostile_files_never_cost_a_real_rating_or_a_rating(go: Callable[[str], Page],
                                                             tmp_path: Path) -> None:
    page = go(REAL[0] + "/")
    real = real_progress(page)
    now = page.evaluate("new Date().toISOString()")
    generator = str(ROOT / "tests" / "js" / "hostile-progress.js")
    made = subprocess.run(["node", generator, str(SEED), str(COUNT), now, json.dumps(real)],
                          cwd=ROOT, capture_output=True, text=True, check=True)
    files = json.loads(made.stdout)
    assert len(files) == COUNT
    page = go("progress/")
    message = page.locator(".transfer-message")
    accepted = 0
    for i, hostile in enumerate(files):
        where = f"seed {SEED}, file {i} ({hostile['kind']})"
        page.evaluate("([key, value]) => { localStorage.setItem(key, value); "
                      "document.querySelector('.transfer-message').textContent = ''; }",
                      [KEY, json.dumps(real)])
        path = tmp_path / f"hostile-{i}.json"
        path.write_text(hostile["text"])
        page.locator(".transfer-file").set_input_files(str(path))
        expect(message, where).not_to_be_empty()
        if message.inner_text().endswith("Import it?"):
            page.get_by_role("button", name="Import it").click()
            expect(message, where).to_contain_text(re.compile(r"^(Imported|Not imported)"))
            accepted += message.inner_text().startswith("Imported")
        problems = page.evaluate(CHECK, [real, KEY, ASIDE])
        assert not problems, where + ": " + "; ".join(problems[:5])
        if i % UI_EVERY == UI_EVERY - 1:
            # A reload reads it back whole, and a real question is rated through the page.
            stored = page.evaluate("key => localStorage.getItem(key)", KEY)
            qid = REAL[(i // UI_EVERY) % len(REAL)]
            page = go(qid + "/")
            expect(page.get_by_role("alert"), where).to_have_count(0)
            after = page.evaluate("key => localStorage.getItem(key)", KEY)
            assert after == stored, where + ": a reload rewrote it"
            practise(page, "Review")
            expect(page.locator(".practice-result"), where).to_contain_text("Saved: review. It comes back on")
            page.reload(wait_until="load")
            expect(page.locator(".practice-status"), where).to_contain_text("(rated review on 2026-12-01)")
            page = go("progress/")
            message = page.locator(".transfer-message")
    assert accepted > COUNT // 10, f"seed {SEED}: only {accepted} files were accepted: it tested little"


def test_clear_all_progress_clears_set_aside_copies_and_recordings(go: Callable[[str], Page]) -> None:
    page = go("mock-interview/")
    page.evaluate("""([key, aside]) => new Promise((resolve, reject) => {
        localStorage.setItem(key, JSON.stringify({version: 2, interview: null, questions: {}}));
        localStorage.setItem(aside, JSON.stringify([{id: 'a', at: '2026-11-30T10:00:00.000Z',
            reason: 'its schedule waits longer than 365 days', question: 'export/graph-signature',
            raw: '{}'}]));
        const open = indexedDB.open('pytorch-interview-questions.recordings', 1);
        open.onupgradeneeded = () => open.result.createObjectStore('recordings');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const tx = open.result.transaction('recordings', 'readwrite');
          tx.objectStore('recordings').put(new Blob(['x'], {type: 'audio/webm'}),
                                           'mock/2026-11-29T09:00:00.000Z/export/graph-signature');
          tx.oncomplete = () => { open.result.close(); resolve(); };
        };
    })""", [KEY, ASIDE])
    page.evaluate("""key => localStorage.setItem(key, JSON.stringify([{id: 's1',
        at: '2026-11-30T10:00:00.000Z', questions: [{id: 'export/graph-signature', question: 'Q',
        url: '', rating: 'review', saved: true, seconds: 30, covered: 1, points: 3, flags: 0,
        followUp: null, followUpRating: null, recording: null}]}]))""", MOCK_SESSIONS)
    page.reload(wait_until="load")
    sessions = page.locator(".mock-sessions")
    expect(sessions).to_contain_text("Your earlier mock interviews")
    expect(sessions.locator(".mock-session")).to_have_count(2)  # the kept one and the old recording's
    expect(sessions.locator(".mock-session-recording")).to_have_count(1)
    page = go("progress/")
    expect(page.get_by_role("heading", name="Set aside as unreadable")).to_be_visible()
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Clear all progress").click()
    expect(page.locator(".transfer-message")).to_have_text("Progress cleared.")
    page.reload(wait_until="load")
    expect(page.get_by_role("button", name="Clear all progress")).to_be_visible()
    expect(page.get_by_role("heading", name="Set aside as unreadable")).to_have_count(0)
    expect(page.get_by_role("alert")).to_have_count(0)
    assert page.evaluate("key => localStorage.getItem(key)", ASIDE) is None
    page = go("mock-interview/")
    kept = page.evaluate("""() => new Promise((resolve) => {
        const open = indexedDB.open('pytorch-interview-questions.recordings', 1);
        open.onupgradeneeded = () => open.result.createObjectStore('recordings');
        open.onsuccess = () => {
          const request = open.result.transaction('recordings').objectStore('recordings').count();
          request.onsuccess = () => { open.result.close(); resolve(request.result); };
        };
    })""")
    assert kept == 0, f"{kept} recordings are kept after clearing"
    page.reload(wait_until="load")
    page.wait_for_timeout(500)  # the page has read the kept interviews and recordings (none)
    expect(page.locator(".mock-sessions")).to_be_hidden()
    expect(page.get_by_text("Your earlier mock interviews")).to_have_count(0)
    assert page.evaluate("key => localStorage.getItem(key)", MOCK_SESSIONS) is None


def test_clearing_while_another_tab_holds_the_recordings_open_says_so_and_finishes_when_it_closes(
        go: Callable[[str], Page]) -> None:
    """"Progress cleared." is said only once the recordings are gone: while another tab holds their
    database open the page says what it waits for, and finishes when that tab lets go."""
    page = go("mock-interview/")
    other = page.context.new_page()
    other.goto(page.url, wait_until="load")
    other.evaluate("""() => new Promise((resolve, reject) => {
        const open = indexedDB.open('pytorch-interview-questions.recordings', 1);
        open.onupgradeneeded = () => open.result.createObjectStore('recordings');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          window.heldOpen = open.result;  // kept open, as a tab in the middle of a recording would
          const tx = open.result.transaction('recordings', 'readwrite');
          tx.objectStore('recordings').put(new Blob(['x'], {type: 'audio/webm'}),
                                           'mock/held/export/graph-signature');
          tx.oncomplete = () => resolve();
        };
    })""")
    page = go("progress/")
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Clear all progress").click()
    message = page.locator(".transfer-message")
    expect(message).to_contain_text("Another tab of this site holds the mock interview recordings open")
    expect(message).not_to_contain_text("Progress cleared")
    other.evaluate("() => window.heldOpen.close()")
    expect(message).to_have_text("Progress cleared.")
    other.close()
    names = page.evaluate("() => indexedDB.databases().then((list) => list.map((d) => d.name))")
    assert "pytorch-interview-questions.recordings" not in names, names
