import { describe, expect, it } from 'vitest';
import { HELP_PAGES, renderHelpPage } from '../../scripts/helpPages';
import { markdownToHtml } from '../../scripts/markdown';
import { appZhCN } from '../../src/i18n/app.zh-CN';

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

  it('serves the operator guide and the FAQ in each language, titled by their first heading and linking each other', () => {
    expect(Object.keys(HELP_PAGES)).toEqual(['help/zh-CN/guide.html', 'help/zh-CN/faq.html', 'help/en-US/guide.html', 'help/en-US/faq.html']);
    const page = (address: string) => renderHelpPage(address) ?? '';

    expect(page('help/en-US/guide.html')).toContain('<html lang="en-US">');
    expect(page('help/en-US/guide.html')).toContain('<title>Operator guide · Oxygen Console</title>');
    expect(page('help/en-US/guide.html')).toContain('<a href="faq.html">FAQ</a>');
    expect(page('help/en-US/faq.html')).toContain('<title>Frequently asked questions · Oxygen Console</title>');
    expect(page('help/en-US/faq.html')).toContain('<a href="guide.html">operator guide</a>');

    expect(page('help/zh-CN/guide.html')).toContain('<html lang="zh-CN">');
    expect(page('help/zh-CN/guide.html')).toContain('<title>操作指南 · 氧舱监管系统</title>');
    expect(page('help/zh-CN/guide.html')).toContain('<a href="faq.html">常见问题</a>');
    expect(page('help/zh-CN/faq.html')).toContain('<html lang="zh-CN">');
    expect(page('help/zh-CN/faq.html')).toContain('<title>常见问题 · 氧舱监管系统</title>');
    expect(page('help/zh-CN/faq.html')).toContain('<a href="guide.html">操作指南</a>');

    expect(renderHelpPage('help/other.html')).toBeUndefined();
    expect(renderHelpPage('help/guide.html')).toBeUndefined();
  });

  it('styles the pages from one stylesheet beside the language folders, never inline (the CSP allows no inline style)', () => {
    for (const address of Object.keys(HELP_PAGES)) {
      const html = renderHelpPage(address) ?? '';
      expect(html, address).toContain('<link rel="stylesheet" href="../help.css">');
      expect(html, address).not.toMatch(/<style|style=/);
    }
    expect(renderHelpPage('help/help.css')).toMatch(/^body \{ font: 16px/);
  });

  it("names the Chinese console's buttons and menu entries as the Chinese console shows them", () => {
    const guide = renderHelpPage('help/zh-CN/guide.html') ?? '';
    const labels = [
      appZhCN.app.login.submit,
      appZhCN.app.menu.deviceManager,
      appZhCN.app.menu.userManager,
      appZhCN.app.menu.userInfo,
      appZhCN.app.settings.tabBar,
      appZhCN.app.commands.settings,
      appZhCN.app.live.polling,
      appZhCN.app.tabs.closeOthers,
      appZhCN.app.userInfo.tabs.project,
    ];
    expect(labels.filter((label) => !guide.includes(label))).toEqual([]);
  });

  it('puts no space where a line of the Chinese pages wraps between two Chinese characters', () => {
    for (const address of ['help/zh-CN/guide.html', 'help/zh-CN/faq.html']) {
      expect(renderHelpPage(address)).not.toMatch(/[\u3400-\u9fff，。：；、）“”](<\/strong>)? (<strong>)?[\u3400-\u9fff（“]/);
    }
  });
});
