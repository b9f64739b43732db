// words.mjs — builds OpenCorpora reference data for measuring the Russian
// analyzer of internal/textproc. See README.md in this directory.
//
//   npm ci && node words.mjs [--no-xsd] [dataDir]
//
// dataDir defaults to /work/shared/data (or $TB_DATA_DIR). The script reads
// the text content of every XML/JSON/NDJSON/CSV/text file below it, counts
// Cyrillic words, and writes next to itself:
//
//   frequent-words.tsv  the most frequent words of all files (XSD included)
//   lemmas.tsv          the curated procurement lemmas below, then the most
//                       frequent lemmas of the documents (XSD files left out)
//
// Only derived word counts leave the data directory.

import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const Az = require('az');
const AZ_DIR = path.dirname(require.resolve('az/package.json'));
const AZ_VERSION = JSON.parse(fs.readFileSync(path.join(AZ_DIR, 'package.json'), 'utf8')).version;

const ARGS = process.argv.slice(2);
// --no-xsd: leave out XML Schema files (*.xsd) altogether. By default they
// are read like any XML file and counted for frequent-words.tsv; their
// character data is the Russian xs:documentation text, which is most of the
// Cyrillic text of /work/shared/data. lemmas.tsv never counts them, so the
// flag changes frequent-words.tsv only.
const NO_XSD = ARGS.includes('--no-xsd');
const DATA_DIR = path.resolve(ARGS.find((a) => !a.startsWith('--')) || process.env.TB_DATA_DIR || '/work/shared/data');
const TOP_WORDS = 2000;
// lemmas.tsv: the curated lemmas, then the most frequent lemmas of the
// documents until there are this many lines.
const TOTAL_LEMMAS = 420;

// Curated lemmas: the subjects and terms of Russian public procurement
// notices (44-FZ/223-FZ): what is bought (goods, works, services), who buys
// and who supplies, and the words of the procedure itself. They go into
// lemmas.tsv whatever their frequency in the sample data, because the XSD
// schemas that dominate it rarely use them (охрана, участок, материал and
// замена were missing). Each is written as its OpenCorpora normal form (ё
// written е) under the POS it is meant as: пожарный, запасной, текущий and
// моющий are adjectives here, not the noun or the participle. A lemma that
// OpenCorpora does not know with that POS is dropped, and the script
// reports it.
const CURATED = {
  NOUN: `
    охрана участок заявка поставка закупка материал замена услуга работа
    ремонт оборудование строительство обслуживание содержание продукция
    товар питание препарат автомобиль топливо уборка территория здание
    помещение дорога обеспечение сопровождение изделие средство мебель
    бумага продукт мясо вывоз отход поставщик заказчик участник контракт
    договор аукцион конкурс котировка цена стоимость документация извещение
    протокол победитель организация учреждение школа больница энергия
    электроснабжение теплоснабжение водоснабжение связь компьютер картридж
    реагент инструмент часть шина бензин благоустройство освещение
    проектирование изыскание экспертиза страхование перевозка пассажир
    покрытие ограждение кровля фасад система сигнализация видеонаблюдение
    установка монтаж наладка поверка обучение подготовка аренда лизинг
    кредит дезинфекция вакцина реактив анализ исследование лаборатория
    одежда обувь спецодежда белье`,
  ADJF: `
    лекарственный медицинский капитальный текущий технический программный
    канцелярский молочный бюджетный муниципальный государственный
    федеральный образовательный электронный расходный перевязочный запасной
    дизельный транспортный ремонтный строительный асфальтовый пожарный
    охранный клининговый форменный постельный моющий хозяйственный`,
  VERB: `
    строить закупать поставлять выполнять оказывать заключать ремонтировать
    обеспечивать размещать подавать проводить исполнять оплачивать
    устанавливать заменять охранять`,
};

// Files at the top of the data directory that describe the collection
// rather than being part of it.
const EXCLUDE = new Set(['PROVENANCE.md']);

// Morphology options: dictionary parses only. 'Dictionary' is the only
// parser (no AbbrName/Abbr guesses, no PrefixKnown/PrefixUnknown/SuffixKnown
// predictors, no hyphen splitting), no typo correction, no stutter
// ("нееет") collapsing, no forced UNKN parse. The default replacement
// е→ё stays on so that ё-folded words still find ё-words of the dictionary.
// ignoreCase: true keeps Name/Surn/Patr/Geox/Init parses, which Az otherwise
// drops for lowercase input (all our words are lowercased).
const MORPH_OPTS = {
  parsers: ['Dictionary'],
  typos: 0,
  stutter: 0,
  ignoreCase: true,
  forceParse: false,
};

// Proper names and abbreviations: never reported as lemmas.
// (Trad = trade mark, also a proper name in OpenCorpora.)
// Pronominal and numeral adjectives (Apro: этот, тот, весь; Anum: первый,
// in the lexeme of один) are function words, not procurement lemmas.
const PROPER = ['Name', 'Surn', 'Patr', 'Geox', 'Orgn', 'Trad', 'Abbr', 'Init', 'Apro', 'Anum'];

// Normal-form POS that we keep, and how lemmas.tsv names them.
const KEEP_POS = { NOUN: 'NOUN', ADJF: 'ADJF', INFN: 'VERB' };

const fold = (s) => s.toLowerCase().replace(/ё/g, 'е');
const letterCount = (s) => (s.match(/\p{L}/gu) || []).length;

// ---------------------------------------------------------------- reading

function walk(dir, out) {
  for (const ent of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, ent.name);
    if (ent.isDirectory()) walk(p, out);
    else if (ent.isFile()) out.push(p);
  }
  return out;
}

function sniffBinary(buf) {
  if (buf.length >= 4 && buf[0] === 0x50 && buf[1] === 0x4b && (buf[2] === 3 || buf[2] === 5 || buf[2] === 7)) return 'zip';
  if (buf.length >= 2 && buf[0] === 0x1f && buf[1] === 0x8b) return 'gzip';
  if (buf.length >= 4 && buf.toString('latin1', 0, 4) === '%PDF') return 'pdf';
  if (buf.length >= 4 && buf[0] === 0xd0 && buf[1] === 0xcf && buf[2] === 0x11 && buf[3] === 0xe0) return 'ole';
  const head = buf.subarray(0, 8192);
  const isUtf16 = (head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff);
  if (!isUtf16 && head.includes(0)) return 'binary';
  return null;
}

// Returns { text, encoding }.
function decode(buf, declared) {
  let enc = null, start = 0;
  if (buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) { enc = 'utf-8'; start = 3; }
  else if (buf[0] === 0xff && buf[1] === 0xfe) { enc = 'utf-16le'; start = 2; }
  else if (buf[0] === 0xfe && buf[1] === 0xff) { enc = 'utf-16be'; start = 2; }
  else if (declared) enc = declared.toLowerCase();
  const body = buf.subarray(start);
  if (enc) {
    return { text: new TextDecoder(enc, { fatal: true }).decode(body), encoding: enc + (start ? '+bom' : '') };
  }
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(body), encoding: 'utf-8' };
  } catch {
    return { text: new TextDecoder('windows-1251').decode(body), encoding: 'windows-1251 (guessed)' };
  }
}

const XML_ENTITIES = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
function decodeEntities(s) {
  if (!s.includes('&')) return s;
  return s.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[A-Za-z][\w.-]*);/g, (m, e) => {
    if (e[0] === '#') {
      const cp = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
      return cp > 0 && cp <= 0x10ffff ? String.fromCodePoint(cp) : ' ';
    }
    return XML_ENTITIES[e] ?? ' ';
  });
}

// Character data of an XML document: text between tags and CDATA sections.
// Tag names, attribute names and attribute values, comments, processing
// instructions and the DOCTYPE are skipped.
function xmlCharData(xml, sink) {
  let i = 0;
  const n = xml.length;
  while (i < n) {
    const lt = xml.indexOf('<', i);
    const end = lt < 0 ? n : lt;
    if (end > i) sink(decodeEntities(xml.slice(i, end)));
    if (lt < 0) break;
    if (xml.startsWith('<!--', lt)) {
      const e = xml.indexOf('-->', lt + 4);
      i = e < 0 ? n : e + 3;
    } else if (xml.startsWith('<![CDATA[', lt)) {
      const e = xml.indexOf(']]>', lt + 9);
      sink(xml.slice(lt + 9, e < 0 ? n : e));
      i = e < 0 ? n : e + 3;
    } else if (xml.startsWith('<?', lt)) {
      const e = xml.indexOf('?>', lt + 2);
      i = e < 0 ? n : e + 2;
    } else if (xml.startsWith('<!', lt)) {
      // DOCTYPE, possibly with an internal subset in [...]
      let j = lt + 2, depth = 0;
      for (; j < n; j++) {
        const c = xml[j];
        if (c === '[') depth++;
        else if (c === ']') depth--;
        else if (c === '>' && depth <= 0) break;
      }
      i = j + 1;
    } else {
      // start/end tag; quoted attribute values may contain '>'
      let j = lt + 1, q = null;
      for (; j < n; j++) {
        const c = xml[j];
        if (q) { if (c === q) q = null; }
        else if (c === '"' || c === "'") q = c;
        else if (c === '>') break;
      }
      i = j + 1;
    }
  }
}

function jsonStrings(v, sink) {
  if (typeof v === 'string') sink(v);
  else if (Array.isArray(v)) for (const x of v) jsonStrings(x, sink);
  else if (v && typeof v === 'object') for (const k in v) jsonStrings(v[k], sink); // values only, not keys
}

// ---------------------------------------------------------------- counting

const counts = new Map(); // every file read: frequent-words.tsv
const docCounts = new Map(); // every file read except *.xsd: lemmas.tsv
const stats = { tokens: 0, cyrTokens: 0, docCyrTokens: 0, short: 0, mixed: 0 };
const byCategory = new Map(); // top-level dir -> Cyrillic word tokens

function countText(text, category, isXsd) {
  const toks = text.normalize('NFC').match(/[\p{L}\p{N}]+/gu);
  if (!toks) return;
  let c = 0;
  for (const t of toks) {
    stats.tokens++;
    const w = fold(t);
    if (!/^\p{Script=Cyrillic}+$/u.test(w)) {
      if (/\p{Script=Cyrillic}/u.test(w)) stats.mixed++;
      continue;
    }
    if (w.length < 2) { stats.short++; continue; }
    counts.set(w, (counts.get(w) || 0) + 1);
    if (!isXsd) docCounts.set(w, (docCounts.get(w) || 0) + 1);
    c++;
  }
  stats.cyrTokens += c;
  if (!isXsd) stats.docCyrTokens += c;
  byCategory.set(category, (byCategory.get(category) || 0) + c);
}

function readAll() {
  const files = walk(DATA_DIR, []).sort();
  const kinds = new Map(), encodings = new Map(), skipped = [];
  const bump = (m, k) => m.set(k, (m.get(k) || 0) + 1);
  for (const f of files) {
    const rel = path.relative(DATA_DIR, f);
    if (EXCLUDE.has(rel)) { skipped.push(`${rel} (collection metadata)`); continue; }
    const buf = fs.readFileSync(f);
    const bin = sniffBinary(buf);
    if (bin) { skipped.push(`${rel} (${bin})`); continue; }
    const category = rel.split(path.sep)[0];
    const ext = path.extname(f).slice(1).toLowerCase();
    // The schema folders' own files (schemas and their release notes) are
    // documentation of the format, not procurement documents.
    const isXsd = ext === 'xsd' || rel.startsWith('xsd');
    if (NO_XSD && isXsd) { skipped.push(`${rel} (xsd, --no-xsd)`); continue; }
    const head = buf.subarray(0, 512).toString('latin1').replace(/^\xef\xbb\xbf/, '');
    let kind;
    if (/^\s*</.test(head) || ['xml', 'xsd', 'wsdl'].includes(ext)) kind = 'xml';
    else if (['json', 'ndjson', 'jsonl'].includes(ext) || /^\s*[[{]/.test(head)) kind = 'json';
    else if (['csv', 'tsv', 'txt', 'md', 'text', ''].includes(ext)) kind = 'text';
    else { skipped.push(`${rel} (unknown type .${ext})`); continue; }

    let declared = null;
    if (kind === 'xml') {
      const m = /^\s*<\?xml[^>]*?encoding\s*=\s*["']([A-Za-z0-9._-]+)["']/.exec(head);
      declared = m ? m[1] : 'utf-8';
    }
    let text, encoding;
    try {
      ({ text, encoding } = decode(buf, declared));
    } catch (e) {
      skipped.push(`${rel} (cannot decode as ${declared}: ${e.message})`);
      continue;
    }
    bump(encodings, encoding);

    if (kind === 'xml') {
      xmlCharData(text, (s) => countText(s, category, isXsd));
      bump(kinds, isXsd ? 'xml (xsd)' : 'xml');
    } else if (kind === 'json') {
      let parsed = null;
      try { parsed = [JSON.parse(text)]; kind = 'json'; } catch {
        try {
          parsed = text.split(/\r?\n/).filter((l) => l.trim()).map((l) => JSON.parse(l));
          kind = 'ndjson';
        } catch { parsed = null; kind = 'text (unparsable json)'; }
      }
      if (parsed) for (const v of parsed) jsonStrings(v, (s) => countText(s, category, isXsd));
      else countText(text, category, isXsd);
      bump(kinds, kind);
    } else {
      countText(text, category, isXsd);
      bump(kinds, ext === 'csv' || ext === 'tsv' ? 'csv' : 'text');
    }
  }
  return { files: files.length, kinds, encodings, skipped };
}

// ---------------------------------------------------------------- morphology

function initAz() {
  return new Promise((resolve, reject) =>
    Az.Morph.init(path.join(AZ_DIR, 'dicts'), (err) => (err ? reject(err) : resolve())));
}

const isProper = (tag) => PROPER.some((g) => tag[g]);

// The parts of speech of a lemma's own forms: a family is the forms of the
// lemma's part of speech. OpenCorpora files short adjectives (ADJS),
// comparatives (COMP), participles (PRTF, PRTS) and gerunds (GRND) as parts
// of speech of their own within the lexeme; they go to the last column.
const OWN_POS = { NOUN: ['NOUN'], ADJF: ['ADJF'], VERB: ['INFN', 'VERB'] };

// paradigmForms returns the forms of a parse's paradigm, those of the
// lemma's part of speech (pos) apart from the others; abbreviated forms
// (Abbr) are among the others.
function paradigmForms(parse, pos) {
  const own = new Set(), other = new Set();
  for (let i = 0; i < parse.formCnt; i++) {
    const form = parse.inflect(i);
    const mine = OWN_POS[pos].includes(form.tag.POS) && !form.tag.Abbr && !form.tag.Supr;
    (mine ? own : other).add(fold(form.word));
  }
  return { own, other };
}

const byString = (a, b) => (a < b ? -1 : a > b ? 1 : 0);

// A lemma of lemmas.tsv, keyed by (normal form, POS). Words may reach the
// same key through different lexemes (лицо has an animate and an inanimate
// one); its forms are then the union of their paradigms.
function lemmaEntry(map, lemma, pos) {
  const key = `${lemma}\t${pos}`;
  let L = map.get(key);
  if (!L) map.set(key, (L = { key, lemma, pos, count: 0, parses: new Map() }));
  return L;
}

// Remembers one parse per paradigm of the lemma; forms are built for the
// lemmas that are written only.
function addParse(L, parse) {
  const pkey = `${parse.paradigmIdx}:${L.lemma}`;
  if (!L.parses.has(pkey)) L.parses.set(pkey, parse);
}

function lemmaForms(L) {
  const own = new Set(), other = new Set();
  for (const p of L.parses.values()) {
    const f = paradigmForms(p, L.pos);
    for (const w of f.own) own.add(w);
    for (const w of f.other) other.add(w);
  }
  for (const w of own) other.delete(w);
  return { own: [...own].sort(byString), other: [...other].sort(byString) };
}

// The curated lemmas, in the order of CURATED. A lemma is taken with every
// lexeme whose normal form it is, with the listed POS, that is not a proper
// name or abbreviation.
function curatedLemmas() {
  const entries = new Map(), dropped = [];
  for (const pos of Object.keys(CURATED)) {
    for (const lemma of CURATED[pos].trim().split(/\s+/)) {
      if (entries.has(`${lemma}\t${pos}`)) throw new Error(`curated lemma listed twice: ${lemma} ${pos}`);
      const parses = Az.Morph(lemma, MORPH_OPTS).filter((p) => {
        const n = p.normalize();
        return !isProper(p.tag) && KEEP_POS[n.tag.POS] === pos && fold(n.word) === lemma;
      });
      if (!parses.length) { dropped.push(`${lemma} ${pos}`); continue; }
      const L = lemmaEntry(entries, lemma, pos);
      for (const p of parses) addParse(L, p);
    }
  }
  return { entries, dropped };
}

async function main() {
  const t0 = Date.now();
  const read = readAll();
  const t1 = Date.now();
  await initAz();
  const t2 = Date.now();

  const rank = (m) => [...m].sort((a, b) => b[1] - a[1] || byString(a[0], b[0]));

  // frequent-words.tsv: the most frequent words of every file read.
  const top = rank(counts).slice(0, TOP_WORDS);
  const lines = [];
  const unknown = [];
  for (const [word, count] of top) {
    const normals = [];
    for (const p of Az.Morph(word, MORPH_OPTS)) {
      const nf = fold(p.normalize().word);
      if (!normals.includes(nf)) normals.push(nf);
    }
    if (!normals.length) unknown.push([word, count]);
    lines.push(`${word}\t${count}\t${normals.join(',')}`);
  }
  fs.writeFileSync(path.join(HERE, 'frequent-words.tsv'), lines.join('\n') + '\n');

  // Lemma frequencies of the documents (every file read except *.xsd), over
  // all their words. A word's count goes to the lemma of its most probable
  // parse only: the first parse Az returns for the lowercase word with Az's
  // default case handling, i.e. without the Name/Surn/Patr/Geox/Init parses
  // that Az drops for lowercase input. If that parse is a proper name or an
  // abbreviation (Orgn/Trad/Abbr), or its normal form is not NOUN, ADJF or
  // INFN, or the lemma has fewer than 3 letters, the word counts for no lemma.
  const docLemmas = new Map();
  let noLemma = 0;
  for (const [word, count] of rank(docCounts)) {
    const first = Az.Morph(word, MORPH_OPTS).find((p) => !p.tag.isCapitalized());
    if (!first) { noLemma++; continue; }
    const norm = first.normalize();
    const nf = fold(norm.word);
    const pos = KEEP_POS[norm.tag.POS];
    if (isProper(first.tag) || !pos || letterCount(nf) < 3) { noLemma++; continue; }
    const L = lemmaEntry(docLemmas, nf, pos);
    L.count += count;
    addParse(L, first);
  }

  // lemmas.tsv: the curated lemmas first, in the order of CURATED, then the
  // most frequent lemmas of the documents that are not curated, until there
  // are TOTAL_LEMMAS. A curated lemma that the documents reach through
  // another lexeme gets that lexeme's forms too.
  const curated = curatedLemmas();
  const out = [...curated.entries.values()];
  for (const L of out) {
    const D = docLemmas.get(L.key);
    if (!D) continue;
    L.count = D.count;
    for (const p of D.parses.values()) addParse(L, p);
  }
  const docRanked = [...docLemmas.values()].sort((a, b) =>
    b.count - a.count || byString(a.lemma, b.lemma) || POS_ORDER[a.pos] - POS_ORDER[b.pos]);
  let added = 0, lowest = null;
  for (const D of docRanked) {
    if (out.length >= TOTAL_LEMMAS) break;
    if (curated.entries.has(D.key)) continue;
    out.push(D);
    added++;
    lowest = D.count;
  }

  const perPos = {};
  const multi = [];
  const lemmaLines = out.map((L) => {
    perPos[L.pos] = (perPos[L.pos] || 0) + 1;
    if (L.parses.size > 1) multi.push(`${L.lemma} ${L.pos} (${L.parses.size} paradigms)`);
    const forms = lemmaForms(L);
    return `${L.lemma}\t${L.pos}\t${forms.own.join(' ')}\t${forms.other.join(' ')}`;
  });
  fs.writeFileSync(path.join(HERE, 'lemmas.tsv'), lemmaLines.join('\n') + '\n');
  const t3 = Date.now();

  const fmt = (m) => [...m].map(([k, v]) => `${k}=${v}`).join(', ');
  console.log(`az ${AZ_VERSION}, data ${DATA_DIR}`);
  console.log(`files: ${read.files} found; read: ${fmt(read.kinds)}`);
  console.log(`encodings: ${fmt(read.encodings)}`);
  console.log(`skipped ${read.skipped.length}: ${read.skipped.join('; ')}`);
  console.log(`tokens: ${stats.tokens} letter/digit runs, ${stats.cyrTokens} Cyrillic words (>=2 letters), ` +
    `${counts.size} distinct; dropped ${stats.short} one-letter, ${stats.mixed} mixed-script/with digits`);
  console.log(`Cyrillic words per top-level directory: ${fmt([...byCategory].sort((a, b) => b[1] - a[1]))}`);
  const covered = top.reduce((s, [, c]) => s + c, 0);
  console.log(`frequent-words.tsv: top ${top.length} words cover ${(100 * covered / stats.cyrTokens).toFixed(1)}% ` +
    `of Cyrillic word tokens (lowest count ${top.length ? top[top.length - 1][1] : 0})`);
  console.log(`unknown to OpenCorpora: ${unknown.length} of ${top.length}: ` +
    unknown.map(([w, c]) => `${w}(${c})`).join(' '));
  console.log(`documents without *.xsd: ${stats.docCyrTokens} Cyrillic words, ${docCounts.size} distinct; ` +
    `${noLemma} distinct words count towards no lemma (unknown, other POS, proper/abbreviation, lemma < 3 letters); ` +
    `${docLemmas.size} lemmas (NOUN/ADJF/VERB)`);
  const curatedIn = [...curated.entries.values()];
  console.log(`curated lemmas: ${curatedIn.length + curated.dropped.length} listed, ${curatedIn.length} written, ` +
    `${curated.dropped.length} dropped (unknown to OpenCorpora with that POS): ${curated.dropped.join(', ') || '-'}`);
  const absent = curatedIn.filter((L) => !docLemmas.has(L.key)).map((L) => L.lemma);
  console.log(`curated lemmas not among the document lemmas: ${absent.length}: ${absent.join(' ') || '-'}`);
  console.log(`document lemmas added: ${added} (lowest count ${lowest ?? '-'}); lemmas.tsv: ${out.length} lines`);
  if (multi.length) console.log(`lemmas merged from several paradigms: ${multi.join('; ')}`);
  console.log(`per POS: ${Object.entries(perPos).map(([k, v]) => `${k}=${v}`).join(', ')}`);
  console.log(`time: read ${t1 - t0} ms, az init ${t2 - t1} ms, analysis ${t3 - t2} ms, total ${t3 - t0} ms`);
}

main().catch((e) => { console.error(e); process.exit(1); });
