// The one stylesheet, inlined into every page: the emulator serves no external assets (the
// machines it runs on may have no internet). Mobile first; readable at 320 px.
export const STYLESHEET = `
*{box-sizing:border-box}
html{font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1d2433;background:#f3f5f9}
body{margin:0;padding:1rem}
main{max-width:28rem;margin:0 auto;background:#fff;border-radius:12px;padding:1.25rem;box-shadow:0 1px 3px rgba(0,0,0,.12)}
header.brand{font-size:.85rem;color:#5b6478;margin-bottom:.75rem;display:flex;justify-content:space-between;gap:.5rem}
.badge{font-size:.75rem;border-radius:999px;padding:0 .5rem;background:#fff3cd;color:#6b5200;border:1px solid #e9d48a}
.badge.live{background:#e6f4ea;color:#1e6b34;border-color:#a8d5b5}
h1{font-size:1.35rem;margin:.25rem 0 .5rem;line-height:1.25}
p{margin:.5rem 0}
.muted{color:#5b6478}
.amount{font-size:2rem;font-weight:650;margin:.5rem 0 1rem;letter-spacing:-.01em}
nav.methods{display:flex;gap:.5rem;margin:1rem 0;flex-wrap:wrap}
nav.methods a{flex:1 1 6rem;text-align:center;padding:.6rem .5rem;border:1px solid #c9cfdb;border-radius:8px;color:#1d2433;text-decoration:none}
nav.methods a[aria-current="page"]{border:2px solid #2752c9;background:#eef2fd;font-weight:600}
form{margin:0}
fieldset{border:0;padding:0;margin:0}
legend{font-weight:600;margin-bottom:.5rem}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
details{margin:.5rem 0}summary{cursor:pointer}details ul{padding-left:1.25rem;margin:.25rem 0}
label{display:block;font-weight:550;margin:.75rem 0 .25rem}
.hint{display:block;font-weight:400;font-size:.85rem;color:#5b6478}
input{width:100%;font:inherit;padding:.6rem .7rem;border:1px solid #9aa3b5;border-radius:8px;background:#fff}
.row{display:flex;gap:.75rem}.row>div{flex:1}
button,.button{display:block;width:100%;margin-top:1.25rem;padding:.75rem 1rem;font:inherit;font-weight:600;text-align:center;text-decoration:none;color:#fff;background:#2752c9;border:0;border-radius:8px;cursor:pointer}
button:hover,.button:hover{background:#1d3f9e}
:focus-visible{outline:3px solid #f0a500;outline-offset:2px}
.alert{padding:.75rem;border-radius:8px;margin:1rem 0;border:1px solid}
.alert.error{background:#fdecec;border-color:#f1b0b0;color:#8a1c1c}
.alert.ok{background:#e6f4ea;border-color:#a8d5b5;color:#1e6b34}
.alert.wait{background:#fff8e1;border-color:#f0d98a;color:#6b5200}
.status{font-size:1.2rem;font-weight:650}
table{width:100%;border-collapse:collapse;margin:.75rem 0;font-size:.95rem}
th,td{text-align:left;padding:.4rem .25rem;border-bottom:1px solid #e3e7ee;vertical-align:top}
td.num,th.num{text-align:right;white-space:nowrap}
tfoot td{font-weight:650;border-bottom:0}
dl{display:grid;grid-template-columns:auto 1fr;gap:.25rem .75rem;margin:.75rem 0}
dt{color:#5b6478}dd{margin:0;overflow-wrap:anywhere}
footer{max-width:28rem;margin:1rem auto 0;font-size:.8rem;color:#5b6478;text-align:center}
`;
