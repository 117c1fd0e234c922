// The dashboard's additions to the hosted pages' stylesheet (pages/style.ts): a wide frame for
// tables, a nav bar, status chips. Colours keep at least 4.5:1 contrast on white.
export const DASHBOARD_STYLESHEET = `
main.dash{max-width:76rem}
header.dash{display:flex;flex-wrap:wrap;align-items:center;gap:.5rem 1rem;max-width:76rem;margin:0 auto .75rem}
header.dash strong{font-size:1.05rem}
nav.sections{display:flex;flex-wrap:wrap;gap:.25rem}
nav.sections a{padding:.3rem .6rem;border-radius:6px;color:#1d2433;text-decoration:none}
nav.sections a[aria-current="page"]{background:#2752c9;color:#fff}
.live-status{font-size:.85rem;color:#5b6478;margin-left:auto}
.chip{display:inline-block;font-size:.8rem;border-radius:999px;padding:0 .5rem;border:1px solid #c9cfdb;background:#f3f5f9;color:#1d2433;white-space:nowrap}
.chip.s-succeeded,.chip.s-completed,.chip.s-approved,.chip.s-active,.chip.s-paid{background:#e6f4ea;border-color:#a8d5b5;color:#1e6b34}
.chip.s-failed,.chip.s-dead_letter,.chip.s-revoked,.chip.s-cancelled,.chip.s-expired{background:#fdecec;border-color:#f1b0b0;color:#8a1c1c}
.chip.s-pending,.chip.s-pending_approval,.chip.s-processing,.chip.s-partial,.chip.s-needs_attention{background:#fff8e1;border-color:#f0d98a;color:#6b5200}
a.chip{text-decoration:none}
.scroll{overflow-x:auto}
.scroll table{min-width:40rem}.scroll td code{overflow-wrap:normal}
form.filters{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:flex-end}
form.filters label{margin:0;font-size:.85rem}
form.filters input[type=search]{display:block;width:16rem;max-width:100%;padding:.4rem;font:inherit}
select{font:inherit;padding:.4rem;border:1px solid #9aa3b5;border-radius:6px;background:#fff;display:block}
form.filters button,form.inline button,button.small{width:auto;margin:0;padding:.4rem .9rem}
form.inline{display:flex;flex-wrap:wrap;gap:.5rem;align-items:flex-end}
form.inline label{margin:0;font-size:.85rem}form.inline input{width:9rem;padding:.4rem}
pre{background:#f3f5f9;border-radius:6px;padding:.5rem;overflow-x:auto;font-size:.85rem;white-space:pre-wrap;word-break:break-all}
nav.pager{display:flex;gap:1rem;align-items:center;margin:.5rem 0}
section.attempt{border-top:1px solid #e3e7ee;padding-top:.5rem;margin-top:.75rem}
h2{font-size:1.1rem;margin:1.25rem 0 .5rem}
code{font-size:.9em;overflow-wrap:anywhere}
dd table{overflow-wrap:normal}
@media (max-width:40rem){
.scroll table.stack{min-width:0}
table.stack thead{display:none}
table.stack tr{display:block;border-bottom:1px solid #e3e7ee;padding:.4rem 0}
table.stack td{display:block;border:0;padding:.1rem 0;text-align:left}
}
`;
