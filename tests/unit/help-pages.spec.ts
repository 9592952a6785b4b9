import { describe, expect, it } from 'vitest';
import { HELP_PAGES, renderHelpPage } from '../../scripts/helpPages';
import { markdownToHtml } from '../../scripts/markdown';

describe('the help pages shipped with the console', () => {
  it('renders headings, paragraphs, lists, bold, code and links', () => {
    const html = markdownToHtml('# Title\n\nOne\nparagraph with **bold** and `code`.\n\n- a [link](faq.md)\n  continued\n- b\n\n1. first\n2. second', {
      'faq.md': 'faq.html',
    });
    expect(html).toBe(
      [
        '<h1>Title</h1>',
        '<p>One paragraph with <strong>bold</strong> and <code>code</code>.</p>',
        '<ul><li>a <a href="faq.html">link</a> continued</li><li>b</li></ul>',
        '<ol><li>first</li><li>second</li></ol>',
      ].join('\n'),
    );
  });

  it('escapes markup in the text', () => {
    expect(markdownToHtml('a <script>alert("x")</script> & b')).toBe('<p>a &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; b</p>');
  });

  it('joins wrapped Chinese lines without a space, and other lines with one', () => {
    expect(markdownToHtml('氧舱超过 30 秒\n没有上报。\n\n- 先填写\n  **参数**\n- Chinese\n  句子\n- 30\n  秒')).toBe(
      ['<p>氧舱超过 30 秒没有上报。</p>', '<ul><li>先填写<strong>参数</strong></li><li>Chinese 句子</li><li>30 秒</li></ul>'].join('\n'),
    );
  });

  it('serves the operator guide and the FAQ, titled by their first heading and linking each other', () => {
    const guide = renderHelpPage('help/guide.html') ?? '';
    const faq = renderHelpPage('help/faq.html') ?? '';
    expect(guide).toContain('<title>Operator guide · Oxygen Console</title>');
    expect(guide).toContain('<a href="faq.html">FAQ</a>');
    expect(faq).toContain('<title>Frequently asked questions · Oxygen Console</title>');
    expect(faq).toContain('<a href="guide.html">operator guide</a>');
    expect(Object.keys(HELP_PAGES)).toEqual(['help/guide.html', 'help/faq.html']);
    expect(renderHelpPage('help/other.html')).toBeUndefined();
  });
});
