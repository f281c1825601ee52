// Run by progress-format.js's withProgress through a script element, once the reader has
// progress: storage.js (and with it the progress rules) is then here, and what asked for it is
// drawn now, before the page's load event.
import * as P from "./storage.js";
import { started } from "./progress-format.js";

started(P);
