import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { CHANNEL_FORM_MESSAGES, type ChannelFormRule } from '../../src/domain/channelFormMessages';
import { appEnUS } from '../../src/i18n/app.en-US';
import { appZhCN } from '../../src/i18n/app.zh-CN';
import { launchChromium, serverAndBrowserForThisFile, signIn, startMockConsole, type RunningConsole } from './harness';

/**
 * The template's step and group forms (docs/console.md, "Template forms"): off until switched on, every
 * rule's message under its field in both languages, and a submit that ends on the success page, or on the
 * error page when the backend refuses it; against the real server and against the msw mocks.
 */

type Lang = 'zh-CN' | 'en-US';
const APP = { 'zh-CN': appZhCN.app, 'en-US': appEnUS.app };
const PARAMS = { textMax: { max: 200 }, frameRate: { min: 1, max: 30 }, bitRate: { min: 150, max: 1800 } } as Record<string, Record<string, number>>;
const says = (lang: Lang, rule: ChannelFormRule, params: Record<string, string | number> = PARAMS[rule] ?? {}) =>
  CHANNEL_FORM_MESSAGES[lang][rule].replace(/\{(\w+)\}/g, (_, name: string) => String(params[name]));
const label = (lang: Lang, name: keyof typeof appZhCN.app.channelForm.fields) => APP[lang].channelForm.fields[name];
/** The messages shown under fields now, sorted. */
const shownErrors = async (page: Page) => (await page.locator('.MuiFormHelperText-root.Mui-error').allInnerTexts()).map((text) => text.trim()).sort();
const expectErrors = async (page: Page, expected: string[]) => {
  await page.locator('.MuiFormHelperText-root.Mui-error').first().waitFor();
  await expect.poll(() => shownErrors(page)).toEqual([...expected].sort());
};

const inLanguage = async (page: Page, base: string, lang: Lang) => {
  await page.evaluate((locale) => localStorage.setItem('RaStore.locale', JSON.stringify(locale)), lang);
  await page.goto(`${base}/dashboard/workplace`);
};

const choose = async (page: Page, field: string, option: string) => {
  await page.getByLabel(field, { exact: true }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
  await page.keyboard.press('Escape');
};

/** The step form through both steps: each rule's message, then a valid submit of `name`. */
const stepForm = async (page: Page, base: string, lang: Lang, name: string, checkRules = true) => {
  const t = APP[lang].channelForm;
  await page.goto(`${base}/form/step`);
  await page.getByTestId('step-form').waitFor();
  const text = (field: Parameters<typeof label>[1]) => page.getByLabel(label(lang, field), { exact: true });
  if (checkRules) {
    await text('promoteLink').fill('');
    await page.getByRole('button', { name: t.next }).click();
    await expectErrors(page, [says(lang, 'activityNameRequired'), says(lang, 'channelTypeRequired'), says(lang, 'promotionTimeRequired'), says(lang, 'promotionTimeRequired'), says(lang, 'promoteLinkRequired')]);
    await text('activityName').fill('a'.repeat(21));
    await text('promoteLink').fill('ftp://example.com');
    await text('promotionStart').fill('2026-03-31');
    await text('promotionEnd').fill('2026-03-01');
    await expectErrors(page, [says(lang, 'activityNamePattern'), says(lang, 'channelTypeRequired'), says(lang, 'promotionTimeOrder'), says(lang, 'promoteLinkPattern')]);
  }
  await text('activityName').fill(name);
  await choose(page, label(lang, 'channelType'), t.choices.channelType.app);
  await text('promotionStart').fill('2026-03-01');
  await text('promotionEnd').fill('2026-03-31');
  await text('promoteLink').fill('https://example.com/app');
  await page.getByRole('button', { name: t.next }).click();
  await text('advertisingSource').waitFor();
  if (checkRules) {
    await page.getByRole('button', { name: t.submit }).click();
    await expectErrors(page, [says(lang, 'advertisingSourceRequired'), says(lang, 'advertisingMediaRequired'), says(lang, 'keywordRequired'), says(lang, 'advertisingContentRequired')]);
    await text('advertisingContent').fill('字'.repeat(201));
    await expectErrors(page, [says(lang, 'advertisingSourceRequired'), says(lang, 'advertisingMediaRequired'), says(lang, 'keywordRequired'), says(lang, 'textMax')]);
  }
  await text('advertisingSource').fill('sohu');
  await text('advertisingMedia').fill('cpc');
  await choose(page, label(lang, 'keyword'), t.choices.keyword.toutiao);
  await text('advertisingContent').fill('字'.repeat(200));
  await page.getByRole('button', { name: t.submit }).click();
};

/** The group form: the ranges' messages, then a valid submit; ends on the success page. */
const groupForm = async (page: Page, base: string, lang: Lang) => {
  await page.goto(`${base}/form/group`);
  await page.getByTestId('group-form').waitFor();
  const text = (field: Parameters<typeof label>[1]) => page.getByLabel(label(lang, field), { exact: true });
  await text('videoAcquisitionFrameRate').fill('31');
  await text('videoEncodingFrameRate').fill('0');
  await text('videoRateMin').fill('149');
  await text('audioEncodingRate').fill('1801');
  await text('description').fill('x'.repeat(201));
  await page.getByRole('button', { name: APP[lang].channelForm.submit }).click();
  await expectErrors(page, [says(lang, 'frameRate'), says(lang, 'frameRate'), says(lang, 'bitRate'), says(lang, 'bitRate'), says(lang, 'textMax')]);
  // The default rate is checked against the others when it changes.
  await text('videoRateMax').fill('900');
  await text('videoRateDefault').fill('1800');
  await expect.poll(() => shownErrors(page)).toContain(says(lang, 'rateOrder'));
  for (const [field, value] of [['videoAcquisitionFrameRate', '30'], ['videoEncodingFrameRate', '1'], ['videoRateMin', '150'], ['videoRateMax', '1800'], ['audioEncodingRate', '1800']] as const) await text(field).fill(value);
  await text('description').fill('x'.repeat(200));
  await page.getByRole('button', { name: APP[lang].channelForm.submit }).click();
  await page.getByTestId('result-progress').getByText(APP[lang].result.processing).waitFor();
};

const submittedOk = async (page: Page, lang: Lang) => {
  await page.waitForURL('**/result/success');
  await page.getByTestId('result-progress').getByText(APP[lang].result.processing).waitFor();
  expect(await page.getByTestId('result-progress').innerText()).toContain(APP[lang].result.launched);
};

describe('the template forms against the real server', () => {
  const e2e = serverAndBrowserForThisFile();

  it('are off until the admin turns them on in the settings drawer; then each rule, in both languages, and the result pages', async () => {
    const page = await e2e.browser.newPage();
    const base = e2e.server.url;
    await signIn(page, base, 'admin', 'Admin2026');
    const menu = page.getByTestId('console-menu');
    expect(await menu.locator('a[href="/form/step"]').count()).toBe(0);
    await page.goto(`${base}/form/step`);
    await page.getByRole('button', { name: APP['zh-CN'].exception['404'].back }).waitFor();
    expect(await page.getByTestId('step-form').count()).toBe(0);

    await page.getByRole('button', { name: '个人资料' }).click();
    await page.getByRole('menuitem', { name: '页面配置' }).click();
    await page.locator('[data-settings-drawer] [data-setting="templatePages"]').click();
    // On at once: the page that was not found a moment ago shows behind the drawer.
    await page.getByTestId('step-form').waitFor();
    await page.locator('[data-settings-close]').click();
    await menu.locator('a[href="/form/step"]').waitFor();
    expect(await menu.locator('a[href="/result/error"]').count()).toBe(1);

    await stepForm(page, base, 'zh-CN', '春季活动');
    await submittedOk(page, 'zh-CN');
    // The same activity again: the server refuses it by name, and the error page says why.
    await stepForm(page, base, 'zh-CN', '春季活动', false);
    await page.waitForURL('**/result/error');
    const refusal = `${says('zh-CN', 'activityNameTaken', { name: '春季活动' })}（activityName）`;
    expect(await page.getByTestId('result-error-details').innerText()).toBe(refusal);
    await page.getByRole('link', { name: APP['zh-CN'].result.correct }).click();
    await page.getByTestId('step-form').waitFor();
    expect(await page.getByLabel(label('zh-CN', 'activityName'), { exact: true }).inputValue()).toBe('春季活动');
    await expectErrors(page, [refusal]);

    await groupForm(page, base, 'zh-CN');
    await inLanguage(page, base, 'en-US');
    await stepForm(page, base, 'en-US', 'Spring2026');
    await submittedOk(page, 'en-US');
    await groupForm(page, base, 'en-US');
    await page.close();
  });

  it('stay off for a client, whatever the admin chose on this browser', async () => {
    const page = await e2e.browser.newPage();
    await signIn(page, e2e.server.url, 'client', 'Client2026');
    await page.evaluate(() => localStorage.setItem('RaStore.consoleSettings', JSON.stringify({ templatePages: true })));
    await page.goto(`${e2e.server.url}/form/group`);
    await page.getByRole('button', { name: APP['zh-CN'].exception['404'].back }).waitFor();
    expect(await page.getByTestId('console-menu').locator('a[href^="/form/"], a[href^="/result/"]').count()).toBe(0);
    await page.close();
  });
});

describe('the template forms against the mocks (npm run dev:mock, VITE_TEMPLATE_PAGES=true)', () => {
  let mocked: RunningConsole;
  let base: string;
  let browser: Browser;

  beforeAll(async () => {
    [mocked, browser] = await Promise.all([startMockConsole({ VITE_TEMPLATE_PAGES: 'true' }), launchChromium()]);
    base = mocked.url;
  });

  afterAll(async () => {
    await browser?.close();
    await mocked?.stop();
  });

  it('shows every rule in both languages and ends on the success page, for a client too', async () => {
    const page = await browser.newPage();
    // Vite compiles the console's modules on this first visit.
    await page.goto(`${base}/login`, { timeout: 120_000 });
    await signIn(page, base, 'client', 'Client2026');
    await page.getByTestId('console-menu').locator('a[href="/form/group"]').waitFor();
    await groupForm(page, base, 'zh-CN');
    await stepForm(page, base, 'zh-CN', '秋季活动');
    await submittedOk(page, 'zh-CN');
    await inLanguage(page, base, 'en-US');
    await stepForm(page, base, 'en-US', 'Autumn2026');
    await submittedOk(page, 'en-US');
    await groupForm(page, base, 'en-US');
    await page.close();
  });
});
