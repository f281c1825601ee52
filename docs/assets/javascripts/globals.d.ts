// What the site's scripts share through `window` and what Material for MkDocs defines: types for
// the type check (tsconfig.json) only; the browser never loads this file.
interface Window {
  InterviewProgress: any;
  /** questions.js on the question index: every row, fetched once (the page serves the first ones). */
  QuestionIndex?: { whole: () => Promise<void> };
  InterviewProgressCore: any;
  FSRS: any;
}
declare const document$: { subscribe(callback: () => void): void };
