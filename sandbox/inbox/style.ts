/** The inbox's stylesheet (served as /inbox/style.css). */
export const INBOX_CSS = `
:root { --emoji: "Noto Color Emoji", "Apple Color Emoji", "Segoe UI Emoji"; --fg: #1d2330; --muted: #6b7385; --line: #e3e6ee; --bg: #f6f7fb; --card: #fff; --accent: #3558d6; --bad: #b3261e; --warn: #9a6700; --ok: #1a7f37; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif, var(--emoji); color: var(--fg); background: var(--bg); }
header { display: flex; gap: 16px; align-items: baseline; flex-wrap: wrap; padding: 12px 20px; background: var(--card); border-bottom: 1px solid var(--line); }
h1 { font-size: 18px; margin: 0; }
h2 { font-size: 15px; margin: 0 0 8px; }
h3 { font-size: 14px; margin: 12px 0 6px; }
.muted { color: var(--muted); font-weight: normal; }
.live { font-size: 12px; padding: 2px 8px; border-radius: 10px; background: var(--line); }
.live.on { background: #dcf5e3; color: var(--ok); }
.live.off { background: #fde7e6; color: var(--bad); }
.totals { color: var(--muted); }
main { display: grid; grid-template-columns: minmax(0, 3fr) minmax(0, 2fr); gap: 16px; padding: 16px 20px; }
aside { display: flex; flex-direction: column; gap: 16px; min-width: 0; }
section { background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: 12px 14px; min-width: 0; }
details { border-top: 1px solid var(--line); padding: 6px 0; }
summary { cursor: pointer; font-weight: 600; }
.count { color: var(--muted); font-weight: normal; }
.message { margin: 8px 0 8px 14px; padding: 8px 10px; border-left: 3px solid var(--accent); background: #fafbfe; }
.meta { font-size: 12px; color: var(--muted); overflow-wrap: break-word; }
.subject { font-weight: 600; margin-top: 2px; }
pre.body { margin: 4px 0 0; white-space: pre-wrap; overflow-wrap: break-word; font: 13px/1.4 ui-monospace, SFMono-Regular, Menlo, monospace, var(--emoji); }
.html-body { display: grid; grid-template-columns: 1fr 1fr; gap: 8px; margin-top: 4px; }
.html-body > div { min-width: 0; }
.label { font-size: 11px; color: var(--muted); text-transform: uppercase; letter-spacing: .04em; }
iframe.preview { width: 100%; height: 140px; border: 1px solid var(--line); border-radius: 4px; background: #fff; }
table { width: 100%; border-collapse: collapse; font-size: 12px; }
th, td { text-align: left; padding: 4px 6px; border-top: 1px solid var(--line); vertical-align: top; overflow-wrap: break-word; }
.nowrap { white-space: nowrap; overflow-wrap: normal; }
/* The ledger's detail holds idempotency keys and job ids: long opaque tokens may break anywhere, words do not. */
td.detail { overflow-wrap: anywhere; }
th { color: var(--muted); font-weight: 600; border-top: 0; }
.kind { font-weight: 600; }
.kind-send, .kind-import { color: var(--ok); }
.kind-replay { color: var(--accent); }
.kind-fault, .kind-refused { color: var(--bad); }
.kind-rate_limited { color: var(--warn); }
ul.errors { margin: 2px 0 0; padding-left: 16px; color: var(--bad); }
.empty { color: var(--muted); margin: 0; }
footer { padding: 8px 20px 20px; color: var(--muted); font-size: 12px; }
@media (max-width: 900px) { main { grid-template-columns: 1fr; } }
`;
