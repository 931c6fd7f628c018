/**
 * Executable refusal (spec document 2, Errors: "Executables: refused by extension and by MIME
 * type"). Three checks, each a pure function:
 *  - the file name's extension (programs, installers, OS scripts and packages);
 *  - the declared or extension-derived MIME type;
 *  - the first bytes actually uploaded (sniffed while streaming): Windows PE (an `MZ` header whose
 *    `e_lfanew` points at `PE\0\0`), ELF, Mach-O (thin and fat) and Java class files.
 * A shebang (`#!`) alone is NOT refused: Python, JavaScript and similar sources are documents the
 * platform previews (thumbnail rules), and shell scripts are already refused by extension. A bare
 * `MZ` without a PE header is not refused either (text such as `MZ,Mozambique` starts that way).
 */

const executableExtensions = new Set([
  // Windows programs, libraries, installers and scripts
  'exe', 'dll', 'com', 'scr', 'cpl', 'pif', 'msi', 'msp', 'msix', 'msixbundle', 'appx', 'appxbundle', 'sys', 'drv', 'ocx',
  'bat', 'cmd', 'ps1', 'psm1', 'psd1', 'vbs', 'vbe', 'jse', 'wsf', 'wsh', 'hta', 'gadget', 'lnk', 'reg', 'application',
  // Unix and macOS programs, libraries, scripts and packages
  'elf', 'so', 'dylib', 'ko', 'run', 'sh', 'bash', 'zsh', 'csh', 'ksh', 'fish', 'command', 'app', 'pkg', 'dmg', 'deb', 'rpm', 'apk',
  // Java and other runnable archives
  'jar', 'war', 'ear', 'class', 'xap',
]);

const executableMimeTypes = new Set([
  'application/x-msdownload',
  'application/x-msdos-program',
  'application/x-dosexec',
  'application/vnd.microsoft.portable-executable',
  'application/x-ms-installer',
  'application/x-msi',
  'application/x-ms-shortcut',
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
  'application/java-archive',
  'application/x-java-archive',
  'application/java-vm',
  'application/x-java-applet',
  'application/vnd.android.package-archive',
  'application/x-apple-diskimage',
  'application/x-debian-package',
  'application/vnd.debian.binary-package',
  'application/x-rpm',
  'application/x-redhat-package-manager',
  'application/hta',
]);

/** The media type without parameters, lower-cased ('Text/Plain; charset=utf-8' → 'text/plain'). */
export function bareMediaType(contentType: string): string {
  return contentType.split(';')[0]!.trim().toLowerCase();
}

/** Why this name or type is an executable, or undefined. */
export function executableByName(fileName: string, contentType?: string): string | undefined {
  const dot = fileName.lastIndexOf('.');
  const ext = dot >= 0 ? fileName.slice(dot + 1).toLowerCase() : '';
  if (ext && executableExtensions.has(ext)) return `executables are refused: "${fileName}" has the executable extension .${ext}`;
  if (contentType && executableMimeTypes.has(bareMediaType(contentType))) {
    return `executables are refused: "${fileName}" has the executable type ${bareMediaType(contentType)}`;
  }
  return undefined;
}

/** How many leading bytes the sniffer wants before it decides (a PE header sits within the first 4 KiB in practice). */
export const SNIFF_BYTES = 4096;

/**
 * What kind of executable these leading bytes are, or undefined. Pass at least SNIFF_BYTES, or
 * the whole file when it is shorter.
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
  if (b.length >= 0x40 && b[0] === 0x4d && b[1] === 0x5a) {
    const peOffset = (b[0x3c]! | (b[0x3d]! << 8) | (b[0x3e]! << 16) | (b[0x3f]! << 24)) >>> 0;
    if (peOffset >= 0x40 && peOffset + 4 <= b.length && b[peOffset] === 0x50 && b[peOffset + 1] === 0x45 && b[peOffset + 2] === 0 && b[peOffset + 3] === 0) {
      return 'a Windows executable (PE)';
    }
  }
  return undefined;
}
