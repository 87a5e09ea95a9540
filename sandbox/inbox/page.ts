/**
 * The inbox's HTML shell: no inline script or style, so the Content-Security-Policy can forbid both. The
 * first snapshot rides along as a JSON data block (never executed, so the CSP allows it), so the page
 * opens filled instead of saying "No messages yet" until its first fetch.
 */
/** An envelope, so the browser does not ask for /favicon.ico (which is an API 404). */
export const INBOX_ICON = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect x="1" y="3" width="14" height="10" rx="2" fill="#3558d6"/><path d="M2 4l6 5 6-5" stroke="#fff" fill="none"/></svg>';

const HEAD = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Messaging Service sandbox · inbox</title>
<link rel="icon" href="/inbox/icon.svg">
<link rel="stylesheet" href="/inbox/style.css">
<script src="/inbox/app.js" defer></script>
`;

const BODY = `</head>
<body>
<header>
  <h1>Messaging Service sandbox <span class="muted">· inbox</span></h1>
  <span id="live" class="live">loading…</span>
  <span id="totals" class="totals"></span>
</header>
<main>
  <section class="wide">
    <h2>Messages <span class="muted">by channel and recipient, newest first</span></h2>
    <div id="messages"><p class="empty">Loading…</p></div>
  </section>
  <aside>
    <section><h2>Rate windows</h2><div id="rates"><p class="empty">Loading…</p></div></section>
    <section><h2>Ledger</h2><div id="events"><p class="empty">Loading…</p></div></section>
    <section><h2>Import jobs</h2><div id="jobs"><p class="empty">Loading…</p></div></section>
    <section><h2>Contacts</h2><div id="contacts"><p class="empty">Loading…</p></div></section>
  </aside>
</main>
<footer>A read-only view of what this sandbox "delivered". Nothing leaves this machine. API keys are masked.</footer>
</body>
</html>
`;

/** JSON that cannot close its <script> block: every `<` escaped (message bodies are untrusted). */
function dataBlock(snapshot: unknown): string {
  const json = JSON.stringify(snapshot).replace(/</g, '\\u003c');
  return `<script type="application/json" id="initial-state">${json}</script>\n`;
}

/** The page with the snapshot it opens on. */
export function inboxHtml(snapshot: unknown): string {
  return HEAD + dataBlock(snapshot) + BODY;
}
