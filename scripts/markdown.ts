/**
 * Markdown to HTML for the help pages the build ships (docs/operator-guide.md, docs/faq.md and their
 * Chinese versions): headings, paragraphs, lists, bold, inline code and links, which is all those pages
 * use. Everything else is escaped text, so a page can never inject markup.
 */

const escapeHtml = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** `links` turns a link to another document (`faq.md`) into the address its page is served at. */
const inline = (text: string, links: Record<string, string>): string =>
  escapeHtml(text)
    .replace(/`([^`]+)`/g, '<code>$1</code>')
    .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
    .replace(/\[([^\]]+)\]\(([^)\s]+)\)/g, (_, label: string, href: string) => `<a href="${links[href] ?? href}">${label}</a>`);

/** Chinese characters and punctuation (its curly quotes too): a line break between two of them is no space. */
const CJK = /[\u2018-\u201f\u3000-\u303f\u3400-\u9fff\uff00-\uffef]/;

/** The text's letters without the bold and code marks around them, which a break between Chinese may sit beside. */
const letters = (text: string): string => text.replace(/[*`[]/g, '');

/** Joins a wrapped line to the text before it, with a space unless Chinese meets Chinese at the break. */
const joinLines = (before: string, line: string): string =>
  CJK.test(letters(before).at(-1) ?? '') && CJK.test(letters(line).at(0) ?? '') ? `${before}${line}` : `${before} ${line}`.trim();

type Block = { kind: 'h'; level: number; text: string } | { kind: 'p'; text: string } | { kind: 'ul' | 'ol'; items: string[] };

const HEADING = /^(#{1,3}) (.*)$/;
const BULLET = /^- (.*)$/;
const NUMBERED = /^\d+\. (.*)$/;

const blocksOf = (markdown: string): Block[] => {
  const blocks: Block[] = [];
  for (const line of markdown.split('\n')) {
    const last = blocks.at(-1);
    const heading = HEADING.exec(line);
    const item = BULLET.exec(line) ?? NUMBERED.exec(line);
    if (!line.trim()) blocks.push({ kind: 'p', text: '' });
    else if (heading) blocks.push({ kind: 'h', level: heading[1]?.length ?? 1, text: heading[2] ?? '' });
    else if (item) {
      const kind = BULLET.test(line) ? 'ul' : 'ol';
      if (last?.kind === kind) last.items.push(item[1] ?? '');
      else blocks.push({ kind, items: [item[1] ?? ''] });
    } else if (last?.kind === 'ul' || last?.kind === 'ol') {
      // An indented line continues the list item above it.
      last.items[last.items.length - 1] = joinLines(last.items.at(-1) ?? '', line.trim());
    } else if (last?.kind === 'p') last.text = joinLines(last.text, line.trim());
    else blocks.push({ kind: 'p', text: line.trim() });
  }
  return blocks.filter((block) => block.kind !== 'p' || block.text);
};

export const markdownToHtml = (markdown: string, links: Record<string, string> = {}): string =>
  blocksOf(markdown)
    .map((block) => {
      switch (block.kind) {
        case 'h':
          return `<h${block.level}>${inline(block.text, links)}</h${block.level}>`;
        case 'p':
          return `<p>${inline(block.text, links)}</p>`;
        default:
          return `<${block.kind}>${block.items.map((item) => `<li>${inline(item, links)}</li>`).join('')}</${block.kind}>`;
      }
    })
    .join('\n');

/**
 * The help pages' look, a file of its own (`stylesheet`): the Content-Security-Policy allows no inline
 * style on them.
 */
export const HELP_STYLES = `body { font: 16px/1.6 system-ui, sans-serif; max-width: 46rem; margin: 2rem auto; padding: 0 1rem; color: #1d2129; }
h1, h2 { color: #165dff; } h2 { margin-top: 2rem; border-bottom: 1px solid #e5e6eb; }
code { background: #f2f3f5; padding: 0 0.25rem; border-radius: 3px; } a { color: #165dff; }
`;

/**
 * A whole page in the language `lang`: the document's first heading, then the console's name in that
 * language (`site`), is its title; `stylesheet` is the address of HELP_STYLES relative to the page.
 */
export const helpPage = (
  markdown: string,
  { links, lang, site, stylesheet }: { links: Record<string, string>; lang: string; site: string; stylesheet: string },
): string => {
  const title = HEADING.exec(markdown.split('\n')[0] ?? '')?.[2] ?? site;
  return `<!doctype html>
<html lang="${escapeHtml(lang)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · ${escapeHtml(site)}</title>
<link rel="stylesheet" href="${escapeHtml(stylesheet)}">
</head>
<body>
${markdownToHtml(markdown, links)}
</body>
</html>
`;
};
