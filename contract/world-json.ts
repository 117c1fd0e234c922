// The one reading of a world file's text, whichever file it is: a fixtures file (--fixtures, the
// testing API's fixtures, `svc emulator fixtures validate`), `--import`'s world.json and a named
// snapshot (<data dir>/snapshots/<name>.json), so svc takes the same files everywhere. A UTF-8
// byte order mark first is what some editors write (Notepad, PowerShell's Out-File), and
// JSON.parse refuses it: it is skipped.

/** The JSON value of a world file's text; throws the parser's SyntaxError. */
export const parseWorldJson = (text: string): unknown => JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
