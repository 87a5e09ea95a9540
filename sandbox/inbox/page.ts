/** The inbox's HTML shell: no inline script or style, so the Content-Security-Policy can forbid both. */
/** An envelope, so the browser does not ask for /favicon.ico (which is an API 404). */
export const INBOX_ICON = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect x="1" y="3" width="14" height="10" rx="2" fill="#3558d6"/><path d="M2 4l6 5 6-5" stroke="#fff" fill="none"/></svg>';

export const INBOX_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Messaging Service sandbox · inbox</title>
<link rel="icon" href="/inbox/icon.svg">
<link rel="stylesheet" href="/inbox/style.css">
<script src="/inbox/app.js" defer></script>
</head>
<body>
<header>
  <h1>Messaging Service sandbox <span class="muted">· inbox</span></h1>
  <span id="live" class="live">connecting…</span>
  <span id="totals" class="totals"></span>
</header>
<main>
  <section class="wide">
    <h2>Messages <span class="muted">by channel and recipient, newest first</span></h2>
    <div id="messages"><p class="empty">No messages yet.</p></div>
  </section>
  <aside>
    <section><h2>Rate windows</h2><div id="rates"><p class="empty">No calls yet.</p></div></section>
    <section><h2>Ledger</h2><div id="events"><p class="empty">Nothing on the wire yet.</p></div></section>
    <section><h2>Import jobs</h2><div id="jobs"><p class="empty">No jobs yet.</p></div></section>
    <section><h2>Contacts</h2><div id="contacts"><p class="empty">No contacts yet.</p></div></section>
  </aside>
</main>
<footer>A read-only view of what this sandbox "delivered". Nothing leaves this machine. API keys are masked.</footer>
</body>
</html>
`;
