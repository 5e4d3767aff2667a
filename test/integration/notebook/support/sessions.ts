import type { Conversation } from '@contract';
import { assistant, cell, conversation, display, error, notice, PNG_1X1, result, stderr, stdout, user } from './conversation-builders';

export const ANSI_TRACEBACK = [
  '\u001b[0;31m---------------------------------------------------------------------------\u001b[0m',
  '\u001b[0;31mZeroDivisionError\u001b[0m                         Traceback (most recent call last)',
  '\u001b[0;31mZeroDivisionError\u001b[0m: division by zero',
];

/** Every kind of item and output the app produces, in several languages. */
export function richSession(): Conversation {
  return conversation([
    user('Plot the sales data, please. Here is a screenshot:', [
      { path: 'attachments/screen.png', name: 'screen shot [1].png', mime: 'image/png', size: 70 },
      { path: 'attachments/data.csv', name: 'data.csv', mime: 'text/csv', size: 10 },
    ]),
    assistant('Let me look at the data first.\n\n- read it\n- plot it'),
    cell('python', 'import sys\nprint("rows: 3")\nprint("warn", file=sys.stderr)', [stdout('rows: 3\n'), stderr('warn\n')]),
    cell('python', 'plot()', [
      display({ 'image/png': PNG_1X1, 'text/plain': '<Figure size 640x480 with 1 Axes>' }, { 'image/png': { width: 1, height: 1 } }),
    ]),
    cell('python', 'table', [result(3, { 'text/html': '<table>\n<tr><td>1</td></tr>\n</table>', 'text/plain': 'Table(1 row)' })]),
    cell('python', 'data', [result(4, { 'application/json': { a: [1, 2, { b: null }] }, 'text/plain': "{'a': [1, 2, {'b': None}]}" })]),
    cell('shell', 'ls -1 | head -3\nprintf "progress 10%%\\rprogress 100%%\\n"', [stdout('a.csv\nb.csv\nprogress 10%\rprogress 100%\n')]),
    cell('javascript', 'console.log("héllo ✓")', [stdout('héllo ✓\n')]),
    // Every line boundary Python's splitlines knows, so the byte-for-byte comparison covers them all.
    cell('python', 'odd()', [stdout('crlf\r\nvt\u000bff\u000cfs\u001cgs\u001drs\u001enel\u0085ls\u2028ps\u2029end 🎉')]),
    cell('ruby', 'puts 1 + 1', [stdout('2\n')]),
    cell('python', '1/0', [error('ZeroDivisionError', 'division by zero', ANSI_TRACEBACK)], { status: 'failed', exitCode: 1 }),
    cell('shell', 'rm -rf ~/important', [], { status: 'skipped', approval: 'declined' }),
    cell('python', 'while True: pass', [], { status: 'timeout', exitCode: null }),
    cell('r', 'print(1)', [], { status: 'unavailable', approval: 'auto', executionCount: null, exitCode: null }),
    notice('Older messages were trimmed from what the model sees.'),
    user(''),
    assistant(''),
    assistant('Done: the **plot** is above.', 'step-2'),
  ]);
}

/** A Python + shell session whose recorded outputs are what running its code prints. */
export function pythonShellSession(): Conversation {
  return conversation(
    [
      user('Count the words in a small file.'),
      assistant('I will write the file in Python and count with the shell.'),
      cell('python', 'text = "one two three\\nfour five\\n"\nopen("words.txt", "w").write(text)\nprint("written")', [stdout('written\n')]),
      cell('shell', 'wc -w < words.txt\necho "lines: $(wc -l < words.txt)"', [stdout('5\nlines: 2\n')]),
      cell('python', 'n = len(text.split())\nfor i in range(3):\n    print("row", i)\nn * 2', [
        stdout('row 0\nrow 1\nrow 2\n'),
        result(3, { 'text/plain': '10' }),
      ]),
      cell('javascript', 'console.log([1, 2, 3].map((x) => x * 2).join(","))', [stdout('2,4,6\n')]),
      cell('python', 'import sys\nprint("to stderr", file=sys.stderr)', [stderr('to stderr\n')]),
      assistant('There are 5 words on 2 lines.'),
    ],
    { id: 'conv-exec', title: 'Word count' },
  );
}
