// Builds the page into dist/: one bundled, minified script and one stylesheet, named by their content's
// hash (served with a year's cache), and index.html naming them. No inline script or style: the bot serves
// the page under a strict Content-Security-Policy (script-src 'self').
import {build} from 'esbuild';
import {createHash} from 'node:crypto';
import {mkdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs';

const out = 'dist';
rmSync(out, {recursive: true, force: true});
mkdirSync(`${out}/assets`, {recursive: true});

const bundle = await build({
  entryPoints: ['src/main.js'],
  bundle: true,
  minify: true,
  format: 'esm',
  target: ['es2020'],
  write: false,
  legalComments: 'none',
});
const named = (name, ext, text) => {
  const hash = createHash('sha256').update(text).digest('hex').slice(0, 12);
  const file = `${name}-${hash}.${ext}`;
  writeFileSync(`${out}/assets/${file}`, text);
  return file;
};
const script = named('main', 'js', bundle.outputFiles[0].contents);
const style = named('style', 'css', readFileSync('src/style.css'));
const html = readFileSync('src/index.html', 'utf8')
  .replace('%SCRIPT%', `assets/${script}`)
  .replace('%STYLE%', `assets/${style}`);
writeFileSync(`${out}/index.html`, html);
console.log(`built ${out}/index.html, assets/${script}, assets/${style}`);
