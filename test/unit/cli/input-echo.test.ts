import { describe, expect, it } from 'vitest';
import { InputEcho } from '../../../src-main/cli/input-echo';

/** An echo filter told to expect each text in turn from cell c1. */
function expecting(...texts: string[]): InputEcho {
  const echo = new InputEcho();
  for (const text of texts) echo.expect('c1', text);
  return echo;
}

describe('the echo of an input answer, kept out of the output', () => {
  it("drops the prompt and the echoed answer, across chunks and with the terminal's CR-LF", () => {
    const echo = expecting('Name? ', 'Bob\n');
    expect(echo.filter('c1', 'Na')).toBe('');
    expect(echo.filter('c1', 'me? Bo')).toBe('');
    expect(echo.filter('c1', 'b\r\nhello Bob\r\n')).toBe('hello Bob\r\n');
    expect(echo.filter('c1', 'Name? again\n')).toBe('Name? again\n');
  });

  it('shows output that only starts like the echo, whole, with what it held', () => {
    const echo = expecting('two\n');
    expect(echo.filter('c1', 'tw')).toBe('');
    expect(echo.filter('c1', 'o!!\n')).toBe('two!!\n');
  });

  it('goes on to the next expected text when one never came (the prompt was shown before the question)', () => {
    const echo = expecting('Name? ', 'Bob\n');
    expect(echo.filter('c1', 'Bob\r\nafter\n')).toBe('after\n');
  });

  it('gives back what it held when the cell ends, and keeps cells apart', () => {
    const echo = expecting('secret-looking\n');
    expect(echo.filter('c2', 'secret-looking\n')).toBe('secret-looking\n');
    expect(echo.filter('c1', 'secret')).toBe('');
    expect(echo.release('c1')).toBe('secret');
    expect(echo.filter('c1', 'secret-looking\n')).toBe('secret-looking\n');
  });
});
