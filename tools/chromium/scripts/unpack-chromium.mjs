// Run as a child process with TMPDIR set to a staging folder: @sparticuz/chromium unpacks its
// browser, fonts and SwiftShader libraries into the temporary folder of the process, and prints
// nothing else but the binary's path.
import Chromium from '@sparticuz/chromium';

process.stdout.write(await Chromium.executablePath());
