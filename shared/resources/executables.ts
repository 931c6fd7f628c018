/**
 * Executable refusal (spec document 2, Errors: "Executables: refused by extension and by MIME
 * type"; issue 9 item 5). Three checks, each pure:
 *  - the file name's extension: programs, installers, OS scripts, script hosts, shortcuts,
 *    macro-enabled Office files, disk images and packages (the list is in docs/resources.md).
 *    The name is judged as every system would store it: as given, and as Windows would create it,
 *    where `x.exe:stream` and `x.exe::$DATA` name a stream of `x.exe` and trailing dots and
 *    spaces are dropped (`x.exe.` and `x.exe ` are `x.exe`);
 *  - the declared or extension-derived MIME type;
 *  - the bytes actually uploaded, sniffed while streaming (ExecutableSniffer): Windows PE (an
 *    `MZ` header whose `e_lfanew` points at `PE\0\0`, followed to wherever it points), ELF,
 *    Mach-O (thin and fat) and Java class files.
 * A shebang (`#!`) alone is NOT refused: Python and similar sources are documents the platform
 * previews; scripts a desktop runs on double-click are refused by extension. A bare `MZ` without a
 * PE header is not refused either (text such as `MZ,Mozambique` starts that way).
 */

const executableExtensions = new Set([
  // Windows programs, libraries, drivers and add-ins loaded as code
  'exe', 'com', 'scr', 'pif', 'cpl', 'dll', 'sys', 'drv', 'ocx', 'xll', 'wll',
  // Windows installers and application packages
  'msi', 'msp', 'mst', 'msu', 'msix', 'msixbundle', 'appx', 'appxbundle', 'appinstaller', 'application', 'appref-ms', 'xbap', 'vsto',
  'gadget', 'diagcab',
  // Windows command and script hosts (cmd, PowerShell, Windows Script Host, Monad)
  'bat', 'cmd', 'ps1', 'psm1', 'psd1', 'ps1xml', 'ps2', 'ps2xml', 'psc1', 'psc2', 'msh', 'msh1', 'msh2', 'mshxml', 'msh1xml', 'msh2xml',
  'vb', 'vbs', 'vbe', 'js', 'jse', 'ws', 'wsf', 'wsc', 'wsh', 'sct', 'hta',
  // Windows files the shell acts on when opened: shortcuts, registry, setup, consoles, help, search
  'lnk', 'url', 'website', 'scf', 'reg', 'inf', 'ins', 'isp', 'msc', 'chm', 'hlp', 'shb', 'shs',
  'settingcontent-ms', 'library-ms', 'search-ms', 'searchconnector-ms',
  // Office and Access files that carry macros (the macro-free .docx, .xlsx, .pptx are fine)
  'docm', 'dotm', 'xlsm', 'xltm', 'xlam', 'xla', 'xlm', 'pptm', 'potm', 'ppsm', 'ppam', 'ppa', 'sldm', 'ade', 'adp', 'mde',
  // Disk images that mount as drives (their contents escape the download's mark of the web)
  'iso', 'img', 'vhd', 'vhdx',
  // Unix and macOS programs, libraries, scripts and packages
  'elf', 'so', 'dylib', 'ko', 'run', 'sh', 'bash', 'zsh', 'csh', 'ksh', 'fish', 'command', 'app', 'pkg', 'mpkg', 'dmg', 'deb', 'rpm', 'apk',
  'appimage', 'snap',
  // Java and other runnable archives
  'jar', 'war', 'ear', 'class', 'jnlp', 'xap',
]);

const executableMimeTypes = new Set([
  'application/x-msdownload',
  'application/x-msdos-program',
  'application/x-dosexec',
  'application/vnd.microsoft.portable-executable',
  'application/x-ms-installer',
  'application/x-msi',
  'application/x-ms-shortcut',
  'application/x-ms-application',
  'application/x-ms-xbap',
  'application/appx',
  'application/msix',
  'application/hta',
  'application/vnd.ms-htmlhelp',
  'application/x-executable',
  'application/x-elf',
  'application/x-sharedlib',
  'application/x-mach-binary',
  'application/x-mach-o-executable',
  'application/x-sh',
  'application/x-shellscript',
  'text/x-shellscript',
  'application/x-csh',
  'application/x-bat',
  'application/bat',
  'application/x-powershell',
  'text/vbscript',
  'application/java-archive',
  'application/x-java-archive',
  'application/java-vm',
  'application/x-java-applet',
  'application/x-java-jnlp-file',
  'application/vnd.android.package-archive',
  'application/x-apple-diskimage',
  'application/vnd.apple.installer+xml',
  'application/x-iso9660-image',
  'application/x-virtualbox-vhd',
  'application/x-virtualbox-vhdx',
  'application/x-debian-package',
  'application/vnd.debian.binary-package',
  'application/x-rpm',
  'application/x-redhat-package-manager',
  'application/x-makeself',
  'application/vnd.ms-word.document.macroenabled.12',
  'application/vnd.ms-word.template.macroenabled.12',
  'application/vnd.ms-excel.sheet.macroenabled.12',
  'application/vnd.ms-excel.template.macroenabled.12',
  'application/vnd.ms-excel.addin.macroenabled.12',
  'application/vnd.ms-powerpoint.presentation.macroenabled.12',
  'application/vnd.ms-powerpoint.template.macroenabled.12',
  'application/vnd.ms-powerpoint.slideshow.macroenabled.12',
  'application/vnd.ms-powerpoint.addin.macroenabled.12',
  'application/vnd.ms-powerpoint.slide.macroenabled.12',
]);

/** Every extension refused, sorted (the documented list). */
export const EXECUTABLE_EXTENSIONS: readonly string[] = [...executableExtensions].sort();

/** The media type without parameters, lower-cased ('Text/Plain; charset=utf-8' → 'text/plain'). */
export function bareMediaType(contentType: string): string {
  return contentType.split(';')[0]!.trim().toLowerCase();
}

/**
 * The names a file may end up with on disk: as given, and as Windows creates it (everything from
 * the first colon names an NTFS stream of the file before it; trailing dots and spaces are dropped).
 */
export function storedNames(fileName: string): string[] {
  const colon = fileName.indexOf(':');
  const names = [fileName, colon >= 0 ? fileName.slice(0, colon) : fileName].map((n) => n.replace(/[. ]+$/, ''));
  return [...new Set([fileName, ...names])];
}

function extension(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot >= 0 ? name.slice(dot + 1).toLowerCase() : '';
}

/** Why this name or type is an executable, or undefined. */
export function executableByName(fileName: string, contentType?: string): string | undefined {
  for (const name of storedNames(fileName)) {
    const ext = extension(name);
    if (ext && executableExtensions.has(ext)) {
      const as = name === fileName ? '' : ` (stored as "${name}")`;
      return `executables are refused: "${fileName}" has the executable extension .${ext}${as}`;
    }
  }
  if (contentType && executableMimeTypes.has(bareMediaType(contentType))) {
    return `executables are refused: "${fileName}" has the executable type ${bareMediaType(contentType)}`;
  }
  return undefined;
}

/** How many leading bytes the sniffer collects before it decides (ELF, Mach-O, class, the MZ header). */
export const SNIFF_BYTES = 4096;

const peKind = 'a Windows executable (PE)';

/** `e_lfanew` of a DOS `MZ` header (where its PE signature should be), or undefined when `head` has none. */
export function peSignatureOffset(head: Uint8Array): number | undefined {
  if (head.length < 0x40 || head[0] !== 0x4d || head[1] !== 0x5a) return undefined;
  return (head[0x3c]! | (head[0x3d]! << 8) | (head[0x3e]! << 16) | (head[0x3f]! << 24)) >>> 0;
}

function isPeSignature(b: Uint8Array, at: number): boolean {
  return b[at] === 0x50 && b[at + 1] === 0x45 && b[at + 2] === 0 && b[at + 3] === 0;
}

/**
 * What kind of executable these leading bytes are, or undefined. A PE signature beyond `head` is
 * not seen here: ExecutableSniffer follows it through the rest of the stream.
 */
export function sniffExecutable(head: Uint8Array): string | undefined {
  const b = head;
  if (b.length >= 4 && b[0] === 0x7f && b[1] === 0x45 && b[2] === 0x4c && b[3] === 0x46) return 'an ELF executable';
  if (b.length >= 4) {
    const be = ((b[0]! << 24) | (b[1]! << 16) | (b[2]! << 8) | b[3]!) >>> 0;
    if (be === 0xfeedface || be === 0xfeedfacf || be === 0xcefaedfe || be === 0xcffaedfe) return 'a Mach-O executable';
    // Fat Mach-O binaries and Java class files share this magic; both are executables.
    if (be === 0xcafebabe) return 'a Mach-O universal binary or Java class file';
  }
  // Any offset counts: tiny PEs overlap their PE header with the DOS header (e_lfanew = 4).
  const pe = peSignatureOffset(b);
  if (pe !== undefined && pe + 4 <= b.length && isPeSignature(b, pe)) return peKind;
  return undefined;
}

/**
 * Sniffs a stream chunk by chunk, holding at most SNIFF_BYTES: the head is judged by
 * sniffExecutable; when it is an `MZ` header whose `e_lfanew` lies beyond the head, the four bytes
 * at that offset are picked from later chunks as they pass (a PE header cannot be hidden by
 * pointing past the sniffed window). A signature offset beyond the end of the file is no program
 * a loader would run. `push` and `end` answer the refusal as soon as it is known, once.
 */
export class ExecutableSniffer {
  #head: Uint8Array[] = [];
  #headBytes = 0;
  #seen = 0;
  #decided = false;
  #peAt: number | undefined;
  #pe = new Uint8Array(4);
  #peGot = 0;

  push(chunk: Uint8Array): string | undefined {
    const start = this.#seen;
    this.#seen += chunk.length;
    if (this.#decided) return undefined;
    if (this.#peAt === undefined) {
      const take = Math.min(chunk.length, SNIFF_BYTES - this.#headBytes);
      this.#head.push(chunk.subarray(0, take));
      this.#headBytes += take;
      if (this.#headBytes < SNIFF_BYTES) return undefined;
      const verdict = this.#judgeHead();
      if (this.#decided) return verdict;
    }
    return this.#pick(chunk, start);
  }

  end(): string | undefined {
    if (this.#decided) return undefined;
    const verdict = this.#peAt === undefined ? this.#judgeHead() : undefined;
    this.#decided = true;
    return verdict;
  }

  #judgeHead(): string | undefined {
    const head = Buffer.concat(this.#head, this.#headBytes);
    this.#head = [];
    const kind = sniffExecutable(head);
    const peAt = peSignatureOffset(head);
    if (kind !== undefined || peAt === undefined || peAt + 4 <= head.length) {
      this.#decided = true;
      return kind;
    }
    this.#peAt = peAt;
    return this.#pick(head, 0);
  }

  /** Copies the signature bytes `chunk` (starting at stream offset `start`) holds; decides at four. */
  #pick(chunk: Uint8Array, start: number): string | undefined {
    const at = this.#peAt!;
    const to = Math.min(at + 4, start + chunk.length);
    for (let i = Math.max(at + this.#peGot, start); i < to; i++) this.#pe[this.#peGot++] = chunk[i - start]!;
    if (this.#peGot < 4) return undefined;
    this.#decided = true;
    return isPeSignature(this.#pe, 0) ? peKind : undefined;
  }
}
