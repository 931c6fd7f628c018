/** A script's console output, kept up to a byte limit; past it, one "[truncated]" line ends the text. */
export class ConsoleCapture {
  readonly #limit: number;
  #lines: string[] = [];
  #bytes = 0;
  #truncated = false;

  constructor(limitBytes: number) {
    this.#limit = limitBytes;
  }

  /** Appends one line (`log` plain, other levels prefixed with theirs). */
  write(level: string, text: string): void {
    if (this.#truncated) return;
    const line = level === 'log' ? text : `[${level}] ${text}`;
    const bytes = Buffer.byteLength(line) + 1;
    if (this.#bytes + bytes > this.#limit) {
      const room = this.#limit - this.#bytes;
      // Keep the part of the line that fits (cut on a character, not inside one).
      if (room > 1) this.#lines.push(Buffer.from(line).subarray(0, room - 1).toString().replace(/\uFFFD$/, ''));
      this.#lines.push('[truncated]');
      this.#truncated = true;
      return;
    }
    this.#lines.push(line);
    this.#bytes += bytes;
  }

  text(): string {
    return this.#lines.join('\n');
  }
}
