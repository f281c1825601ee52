"""The mock interview page in Chromium: reached from the home page; with a fake microphone
(`--use-fake-device-for-media-stream --use-fake-ui-for-media-stream`) a reader records an answer,
plays it back beside the model answers, ticks the short answer and the red flags said, grades it
(the grade lands in the review schedule), answers one follow-up, and deletes the recording from
the summary; without a microphone, by keyboard alone, no recording is offered; questions marked
done are not drawn unless the reader asks for them."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import UTC, datetime

import pytest
from playwright.sync_api import Browser, Page, expect

from .gates import CHROMIUM, CHROMIUM_ARGS, DESKTOP, PHONE, serious_accessibility_violations
from .progress_api import with_progress
from .sites import Site

FAKE_MEDIA = ["--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream"]
RECORDINGS = """() => new Promise((resolve, reject) => {
  const open = indexedDB.open("pytorch-interview-questions.recordings", 1);
  open.onupgradeneeded = () => open.result.createObjectStore("recordings");
  open.onsuccess = () => {
    const request = open.result.transaction("recordings").objectStore("recordings").getAllKeys();
    request.onsuccess = () => { open.result.close(); resolve(request.result); };
    request.onerror = () => reject(request.error);
  };
})"""

# Recordings as an earlier version of the site kept them: blobs under "mock/<session>/<question>".
SEED_RECORDINGS = """keys => new Promise((resolve, reject) => {
  const open = indexedDB.open("pytorch-interview-questions.recordings", 1);
  open.onupgradeneeded = () => open.result.createObjectStore("recordings");
  open.onsuccess = () => {
    const tx = open.result.transaction("recordings", "readwrite");
    const blob = new Blob(["not audio"], { type: "audio/webm" });
    keys.forEach(key => tx.objectStore("recordings").put(blob, key));
    tx.oncomplete = () => { open.result.close(); resolve(); };
    tx.onerror = () => reject(tx.error);
  };
})"""
# Storage that refuses a recording: the write succeeds, then the transaction is aborted before it
# commits (as a full disk or quota does), so only its `abort` event fires; or the write itself
# throws a quota error.
REFUSING = {
    "abort": """(() => { const put = IDBObjectStore.prototype.put;
      IDBObjectStore.prototype.put = function (...args) { const request = put.apply(this, args);
        const tx = this.transaction; request.addEventListener("success", () => tx.abort()); return request; };
    })();""",
    "quota": """IDBObjectStore.prototype.put = function () {
      throw new DOMException("The quota has been exceeded.", "QuotaExceededError"); };""",
}
PLAY = """a => a.play().then(() => new Promise(r => setTimeout(r, 600))).then(() => a.currentTime)"""

# Rated as the self-test rates (the scheduler is loaded when a rating is near, not with the page).
RATE_GOT_IT = with_progress("""async ids => { await InterviewProgress.loadScheduler();
                               ids.forEach(id => InterviewProgress.rate(id, 'got-it')); }""")


@pytest.fixture(scope="module")
def media_browser(browser: Browser) -> Iterator[Browser]:
    """A second Chromium, from the same Playwright, with a fake microphone that needs no click."""
    media = browser.browser_type.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS + FAKE_MEDIA)
    try:
        yield media
    finally:
        media.close()


def axe(page: Page) -> list[str]:
    """axe's serious problems, with the pointer out of the way: a button left under it after a
    click is drawn in its hover colour, which is not what a reader reads it in."""
    page.mouse.move(0, 0)
    # Material's back-to-top button fades in when the page scrolls up (focus moved to a heading):
    # mid-fade its colours are not the ones a reader reads it in either.
    page.wait_for_function("() => document.getAnimations().every(a => a.playState !== 'running')")
    return serious_accessibility_violations(page)


def errors_of(page: Page) -> list[str]:
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda message: message.type == "error" and errors.append(message.text))
    return errors


def start(page: Page, topic: str, length: str, include_done: bool = False) -> None:
    form = page.locator(".mock-form")
    for box in form.locator("input[name=topic]").all():
        box.set_checked(box.get_attribute("value") == topic)
    form.locator("select[name=level]").select_option("principal")
    form.locator("select[name=length]").select_option(length)
    form.locator("input[name=include-done]").set_checked(include_done)
    page.get_by_role("button", name="Start the mock interview").click()


def test_record_play_back_grade_and_delete(real_site: Site, media_browser: Browser) -> None:
    context = media_browser.new_context(viewport=DESKTOP, permissions=["microphone"])
    page = context.new_page()
    errors = errors_of(page)
    try:
        page.goto(real_site.url(""))
        page.get_by_role("link", name="Mock interview").first.click()
        expect(page.locator("h1")).to_have_text(re.compile("^Mock interview"))
        start(page, "export", "q3")
        expect(page.locator(".mock-progress")).to_have_text("Question 1 of 3")
        question = page.locator("h2.mock-question").inner_text()
        # The question alone: nothing of its answers is on the page yet.
        expect(page.locator(".mock-checklist")).to_have_count(0)
        expect(page.locator(".mock-said")).to_contain_text("about 20 s, the solid answer in about 50 s")
        expect(page.locator(".mock-clock")).not_to_have_text("0:00", timeout=5000)
        page.get_by_role("button", name="Record my answer").click()
        expect(page.locator(".mock-record-state")).to_have_text("Recording…")
        page.wait_for_timeout(1500)
        page.get_by_role("button", name="Stop recording").click()
        expect(page.locator(".mock-record-state")).to_contain_text("kept in this browser only")
        assert len(page.evaluate(RECORDINGS)) == 1
        page.get_by_role("button", name="I have answered: reveal").click()
        # The reveal: the short answer as a checklist, the red flags as a question, the recording
        # beside the model answers; the recording plays.
        points = page.locator(".mock-covered label")
        expect(points.first).to_be_visible()
        flags = page.locator(".mock-flag label")
        expect(flags.first).to_be_visible()
        expect(page.locator(".mock-flag legend")).to_have_text("Red flags: did you say any of these?")
        expect(page.locator(".mock-model")).to_contain_text("Solid answer")
        audio = page.locator(".mock-mine audio")
        expect(audio).to_be_visible()
        page.wait_for_function("() => document.querySelector('.mock-mine audio').src.startsWith('blob:')")
        played = audio.evaluate("""a => a.play().then(() => new Promise(r => setTimeout(r, 600)))
                                         .then(() => a.currentTime)""")
        assert played > 0, "the recording does not play"
        assert not axe(page)
        points.first.locator("input").check()
        flags.first.locator("input").check()
        flag_text = flags.first.inner_text()
        page.locator(".mock-rate").get_by_role("button", name="Review", exact=True).click()
        expect(page.locator(".mock-saved")).to_contain_text("Saved: Review on")
        # One follow-up, then the next question.
        follow_up = page.locator(".mock-followup h3").inner_text().removeprefix("Follow-up: ")
        page.get_by_role("button", name="Reveal its answer").click()
        expect(page.locator(".mock-followup-answer").first).to_be_visible()
        page.locator(".mock-followup").get_by_role("button", name="Got it", exact=True).click()
        for number in (2, 3):
            page.get_by_role("button", name=re.compile("^(Next question|See the summary)$")).click()
            expect(page.locator(".mock-progress").first).to_have_text(f"Question {number} of 3")
            page.get_by_role("button", name="I have answered: reveal").click()
            page.locator(".mock-rate").get_by_role("button", name="Got it", exact=True).click()
            if page.get_by_role("button", name="Reveal its answer").count():
                page.get_by_role("button", name="Reveal its answer").click()
                page.locator(".mock-followup").get_by_role("button", name="Got it", exact=True).click()
        page.get_by_role("button", name="See the summary").click()
        # The summary: three questions, and what to review names the first, with the flag said.
        expect(page.locator(".mock-summary tbody tr")).to_have_count(3)
        assert not axe(page)
        review = page.locator(".mock-review li")
        expect(review).to_have_count(1)
        expect(review).to_contain_text(question)
        quoted = re.match(r"^[“\"](.+?)[”\"]", flag_text)
        expect(review).to_contain_text("graded review")
        if quoted:
            expect(review).to_contain_text(quoted.group(1))
        # The grades are in the schedule, the follow-up's too, after a reload.
        page.reload()
        entries = page.evaluate(
            with_progress("async () => { await InterviewProgress.loadCore(); "
                          "return InterviewProgress.load().questions; }"))
        graded = [e for e in entries.values() if e["rating"] == "review"]
        assert len(entries) == 3 and len(graded) == 1
        assert graded[0]["followups"][follow_up]["rating"] == "got-it"
        # The recording is listed on the page and deleted from it.
        expect(page.locator(".mock-session audio")).to_have_count(1)
        page.get_by_role("button", name="Delete every recording").click()
        page.get_by_role("button", name="Yes, delete every recording").click()
        expect(page.locator(".mock-sessions [role=status]")).to_have_text("Every recording is deleted.")
        assert page.evaluate(RECORDINGS) == []
    finally:
        context.close()
    assert not errors, errors


def test_without_a_microphone_by_keyboard_alone(real_site: Site, browser: Browser) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844})
    # A browser with no way to record: no recording is offered.
    context.add_init_script("Object.defineProperty(navigator, 'mediaDevices', { value: undefined });")
    page = context.new_page()
    errors = errors_of(page)

    def tab_to(name: str, limit: int = 300) -> None:
        """Press Tab until `name` has focus (no key when it has it already)."""
        for _ in range(limit):
            if page.evaluate("document.activeElement && document.activeElement.textContent.trim()") == name:
                return
            page.keyboard.press("Tab")
        raise AssertionError(f"Tab never reached {name!r}")

    try:
        page.goto(real_site.url("mock-interview/"))
        assert not axe(page)
        page.locator(".mock-form select[name=length]").select_option("q3")
        tab_to("Start the mock interview")
        page.keyboard.press("Enter")
        for number in (1, 2, 3):
            expect(page.locator(".mock-progress").first).to_have_text(f"Question {number} of 3")
            expect(page.get_by_role("button", name="Record my answer")).to_have_count(0)
            if number == 1:
                assert not axe(page)
            tab_to("I have answered: reveal")
            page.keyboard.press("Enter")
            # Focus is on the first point of the checklist: tick it by keyboard.
            expect(page.locator(".mock-covered input").first).to_be_focused()
            page.keyboard.press("Space")
            tab_to("Not yet" if number == 1 else "Got it")
            page.keyboard.press("Enter")
            if page.locator(".mock-followup").count():
                expect(page.locator(".mock-followup h3")).to_be_focused()
                tab_to("Reveal its answer")
                page.keyboard.press("Enter")
                page.keyboard.press("Enter")  # focus is on its first grade, Got it
            tab_to("See the summary" if number == 3 else "Next question")
            page.keyboard.press("Enter")
        expect(page.locator(".mock-summary-title")).to_be_focused()
        expect(page.locator(".mock-summary tbody tr")).to_have_count(3)
        expect(page.locator(".mock-review li")).to_have_count(1)
        expect(page.locator(".mock-review li")).to_contain_text("graded not yet")
        overflow = page.evaluate(
            "document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert overflow <= 0, f"the page is {overflow} px wider than a 390 px phone"
    finally:
        context.close()
    assert not errors, errors


def test_questions_marked_done_are_drawn_only_when_asked(real_site: Site, browser: Browser) -> None:
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    try:
        page.goto(real_site.url("mock-interview/"))
        pages = page.locator("[data-progress-tool=mock] script.question-list").evaluate(
            "s => JSON.parse(s.textContent)")
        export = [q["id"] for q in pages if q["topic"] == "export"]
        left = export[:2]
        page.evaluate(RATE_GOT_IT, export[2:])
        page.reload()
        for _ in range(3):  # drawn at random: three draws all keep to the two not done
            start(page, "export", "q5")
            expect(page.locator(".mock-progress")).to_have_text("Question 1 of 2")
            asked = page.locator("h2.mock-question").inner_text()
            assert asked in [q["question"] for q in pages if q["id"] in left]
            page.reload()
        start(page, "export", "q5", include_done=True)
        expect(page.locator(".mock-progress")).to_have_text("Question 1 of 5")
        # A length in minutes: a question per 4 minutes, and the time used shown with each.
        page.reload()
        start(page, "export", "m30", include_done=True)
        expect(page.locator(".mock-progress")).to_have_text("Question 1 of 7 · 0:00 of 30:00 used")
        # Every question done and none asked for: the reader is told why nothing is drawn.
        page.reload()
        page.evaluate(RATE_GOT_IT, left)
        page.reload()
        start(page, "export", "q5")
        expect(page.locator(".mock-message")).to_contain_text("every one is done")
    finally:
        context.close()


def test_a_grade_that_was_not_saved_says_so(real_site: Site, browser: Browser) -> None:
    """Storage full: a grade says "Not saved" and why where the reader is looking, never
    "Saved", keeps its buttons to try again, and the interview goes on only when asked; the
    summary marks the grades not saved; nothing is written."""
    context = browser.new_context(viewport=DESKTOP)
    context.add_init_script("Object.defineProperty(navigator, 'mediaDevices', { value: undefined });")
    page = context.new_page()

    def follow_up_not_saved() -> None:
        if not page.get_by_role("button", name="Reveal its answer").count():
            return
        page.get_by_role("button", name="Reveal its answer").click()
        page.locator(".mock-followup").get_by_role("button", name="Got it", exact=True).click()
        expect(page.locator(".mock-followup .mock-not-saved [role=alert]")).to_contain_text("Not saved.")
        page.get_by_role("button", name="Go on without saving").click()
        expect(page.locator(".mock-followup")).to_contain_text("Follow-up rated got it, not saved.")

    try:
        page.goto(real_site.url("mock-interview/"))
        page.evaluate("""() => { Storage.prototype.setItem = function () {
            throw new DOMException("full", "QuotaExceededError"); }; }""")
        start(page, "export", "q3")
        page.get_by_role("button", name="I have answered: reveal").click()
        grade = page.locator(".mock-rate")
        grade.get_by_role("button", name="Review", exact=True).click()
        alert = page.locator(".mock-not-saved [role=alert]")
        expect(alert).to_contain_text("Not saved. Your progress could not be saved in this browser "
                                      "(its storage for this site is full)")
        expect(page.locator(".mock-saved")).not_to_contain_text("Saved")
        # Trying again says so again (one message, not a pile), and nothing goes on by itself.
        grade.get_by_role("button", name="Not yet", exact=True).click()
        expect(alert).to_have_count(1)
        expect(page.locator(".mock-followup")).to_have_count(0)
        next_button = page.get_by_role("button", name=re.compile("^(Next question|See the summary)$"))
        expect(next_button).to_have_count(0)
        page.get_by_role("button", name="Go on without saving").click()
        follow_up_not_saved()
        for _ in range(2):
            page.get_by_role("button", name=re.compile("^(Next question|See the summary)$")).click()
            page.get_by_role("button", name="I have answered: reveal").click()
            page.locator(".mock-rate").get_by_role("button", name="Got it", exact=True).click()
            page.get_by_role("button", name="Go on without saving").click()
            follow_up_not_saved()
        page.get_by_role("button", name="See the summary").click()
        rows = page.locator(".mock-summary tbody tr")
        expect(rows).to_have_count(3)
        expect(rows.first.locator("td").first).to_have_text("Not yet (not saved)")
        expect(rows.nth(1).locator("td").first).to_have_text("Got it (not saved)")
        assert page.evaluate("() => localStorage.getItem('pytorch-interview-questions.progress')") is None
    finally:
        context.close()


def recorded_keys(page: Page) -> list[str]:
    return sorted(page.evaluate(RECORDINGS))


def answer(page: Page, grade: str, record: bool) -> None:
    """Answer the question shown (recorded or not), grade it, answer its follow-up, go on."""
    if record:
        state = page.locator(".mock-record-state")
        page.get_by_role("button", name="Record my answer").click()
        expect(state).to_have_text("Recording…")
        page.wait_for_timeout(1200)
        page.get_by_role("button", name="Stop recording").click()
        expect(state).to_contain_text("kept in this browser only")
    page.get_by_role("button", name="I have answered: reveal").click()
    page.locator(".mock-rate").get_by_role("button", name=grade, exact=True).click()
    if page.get_by_role("button", name="Reveal its answer").count():
        page.get_by_role("button", name="Reveal its answer").click()
        page.locator(".mock-followup").get_by_role("button", name="Got it", exact=True).click()
    page.get_by_role("button", name=re.compile("^(Next question|See the summary)$")).click()


def test_each_mock_is_kept_with_its_grades_and_recordings(real_site: Site, media_browser: Browser) -> None:
    """After a reload the page lists the interview: its date, its questions with their grades,
    and a player for each recording, each with its own delete, which deletes only that one."""
    context = media_browser.new_context(viewport=DESKTOP, permissions=["microphone"])
    page = context.new_page()
    errors = errors_of(page)
    try:
        page.goto(real_site.url("mock-interview/"))
        start(page, "export", "q3")
        asked, plan = [], [("Review", True), ("Got it", False), ("Not yet", True)]
        for number, (grade, record) in enumerate(plan, 1):
            expect(page.locator(".mock-progress").first).to_have_text(f"Question {number} of 3")
            asked.append(page.locator("h2.mock-question").inner_text())
            answer(page, grade, record)
        expect(page.locator(".mock-summary tbody tr")).to_have_count(3)
        assert len(recorded_keys(page)) == 2
        page.reload()
        session = page.locator(".mock-session")
        expect(session).to_have_count(1)
        when = session.locator("time").first
        assert (when.get_attribute("datetime") or "")[:10] == datetime.now(UTC).date().isoformat()
        expect(when).not_to_be_empty()
        rows = session.locator(".mock-session-question")
        expect(rows).to_have_count(3)
        for row, title, (grade, record) in zip(rows.all(), asked, plan, strict=True):
            expect(row).to_contain_text(title)
            expect(row).to_contain_text(grade)
            expect(row.locator("audio")).to_have_count(1 if record else 0)
        page.wait_for_function("() => [...document.querySelectorAll('.mock-session audio')]"
                               ".every(a => a.src.startsWith('blob:'))")
        assert rows.first.locator("audio").evaluate(PLAY) > 0, "the kept recording does not play"
        assert not axe(page)
        # Deleting one recording deletes that one alone, and it stays deleted after a reload.
        rows.first.get_by_role("button", name="Delete this recording").click()
        expect(rows.first).to_contain_text("Recording deleted.")
        page.reload()
        rows = page.locator(".mock-session .mock-session-question")
        expect(rows).to_have_count(3)
        expect(rows.first.locator("audio")).to_have_count(0)
        expect(rows.first).to_contain_text("Review")
        expect(rows.nth(2).locator("audio")).to_have_count(1)
        assert len(recorded_keys(page)) == 1
    finally:
        context.close()
    assert not errors, errors


def test_delete_every_recording_asks_first(real_site: Site, browser: Browser) -> None:
    """Recordings kept by an earlier version are listed too; "Delete every recording" asks, and
    Cancel keeps every one (after a reload too); Yes deletes them all."""
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    errors = errors_of(page)
    try:
        page.goto(real_site.url("mock-interview/"))
        page.evaluate(SEED_RECORDINGS, ["mock/2026-01-02T10:00:00.000Z/export/graph-signature",
                                        "mock/2026-01-02T10:00:00.000Z/export/what-export-returns"])
        page.reload()
        expect(page.locator(".mock-session audio")).to_have_count(2)
        page.get_by_role("button", name="Delete every recording").click()
        confirm = page.locator(".mock-confirm")
        expect(confirm).to_contain_text("Delete the 2 recordings")
        assert len(recorded_keys(page)) == 2
        confirm.get_by_role("button", name="Cancel").click()
        expect(confirm).to_have_count(0)
        expect(page.get_by_role("button", name="Delete every recording")).to_be_focused()
        page.reload()
        assert len(recorded_keys(page)) == 2
        expect(page.locator(".mock-session audio")).to_have_count(2)
        page.get_by_role("button", name="Delete every recording").click()
        page.get_by_role("button", name="Yes, delete every recording").click()
        expect(page.locator(".mock-sessions [role=status]")).to_have_text("Every recording is deleted.")
        assert recorded_keys(page) == []
        page.reload()
        expect(page.locator(".mock-session audio")).to_have_count(0)
    finally:
        context.close()
    assert not errors, errors


def test_the_introduction_folds_away_once_a_mock_starts(real_site: Site, browser: Browser) -> None:
    """On a phone the question was below the introduction: once started, the introduction folds
    away and the question and its reveal are on screen at the top of the page."""
    context = browser.new_context(viewport=PHONE)
    context.add_init_script("Object.defineProperty(navigator, 'mediaDevices', { value: undefined });")
    page = context.new_page()
    try:
        page.goto(real_site.url("mock-interview/"))
        intro = page.get_by_text("Rehearse as in an interview")
        expect(intro).to_be_visible()
        start(page, "export", "q3")
        expect(page.locator(".mock-progress")).to_have_text("Question 1 of 3")
        page.evaluate("() => window.scrollTo(0, 0)")
        expect(intro).to_be_hidden()
        expect(page.locator("h2.mock-question")).to_be_in_viewport()
        expect(page.get_by_role("button", name="I have answered: reveal")).to_be_in_viewport()
        # Still there, folded, for a reader who wants it.
        page.get_by_text("About the mock interview").click()
        expect(intro).to_be_visible()
    finally:
        context.close()


@pytest.mark.parametrize("refusal", list(REFUSING))
def test_a_recording_the_storage_refuses_ends_with_a_message(real_site: Site, media_browser: Browser,
                                                              refusal: str) -> None:
    """The storage refuses the recording (the transaction aborts, or a quota error): "Recording…"
    ends with a clear message, and the interview goes on."""
    context = media_browser.new_context(viewport=DESKTOP, permissions=["microphone"])
    context.add_init_script(REFUSING[refusal])
    page = context.new_page()
    try:
        page.goto(real_site.url("mock-interview/"))
        start(page, "export", "q3")
        state = page.locator(".mock-record-state")
        page.get_by_role("button", name="Record my answer").click()
        expect(state).to_have_text("Recording…")
        page.wait_for_timeout(1000)
        page.get_by_role("button", name="Stop recording").click()
        expect(state).to_contain_text("The recording could not be kept", timeout=5000)
        if refusal == "quota":
            expect(state).to_contain_text("storage for this site is full")
        page.get_by_role("button", name="I have answered: reveal").click()
        expect(page.locator(".mock-covered label").first).to_be_visible()
        expect(page.locator(".mock-mine")).to_have_count(0)
        assert recorded_keys(page) == []
    finally:
        context.close()
