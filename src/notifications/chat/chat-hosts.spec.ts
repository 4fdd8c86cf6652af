import { parseReachConfig } from '../../config/reach-config.js';
import { checkChatUrl, readAnswer, targetHint } from './chat-hosts.js';

const reach = parseReachConfig({});

describe('checkChatUrl', () => {
  it('takes only the provider hosts, over https', () => {
    expect(
      checkChatUrl('slack', 'https://hooks.slack.com/services/T/B/x', reach).ok,
    ).toBe(true);
    expect(
      checkChatUrl('slack', 'http://hooks.slack.com/services/T/B/x', reach).ok,
    ).toBe(false);
    expect(
      checkChatUrl('discord', 'https://discord.com/api/webhooks/1/t', reach).ok,
    ).toBe(true);
    expect(
      checkChatUrl('discord', 'https://discord.com/channels/1', reach).ok,
    ).toBe(false);
    expect(
      checkChatUrl(
        'teams',
        'https://x.westeurope.logic.azure.com/w?sig=s',
        reach,
      ).ok,
    ).toBe(true);
    expect(
      checkChatUrl('teams', 'https://logic.azure.com.evil.example/w', reach).ok,
    ).toBe(false);
  });

  it('replaces a kind’s hosts with CHAT_ALLOWED_HOSTS', () => {
    const local = parseReachConfig({
      CHAT_ALLOWED_HOSTS: 'slack=127.0.0.1:4001',
    });
    expect(
      checkChatUrl('slack', 'http://127.0.0.1:4001/services/x', local).ok,
    ).toBe(true);
    expect(
      checkChatUrl('slack', 'http://127.0.0.1:4002/services/x', local).ok,
    ).toBe(false);
    expect(
      checkChatUrl('slack', 'https://hooks.slack.com/services/x', local).ok,
    ).toBe(false);
  });
});

describe('readAnswer', () => {
  it('reads each provider’s throttle and gone answers', () => {
    expect(readAnswer('slack', 429, 'rate_limited', '3')).toEqual({
      ok: false,
      retryAfterMs: 3000,
    });
    expect(
      readAnswer('discord', 429, '{"retry_after": 1.5}', null).retryAfterMs,
    ).toBe(1500);
    expect(
      readAnswer('telegram', 429, '{"parameters":{"retry_after":7}}', null)
        .retryAfterMs,
    ).toBe(7000);
    expect(readAnswer('teams', 410, '', null).gone).toMatch(/410/);
    expect(
      readAnswer(
        'telegram',
        403,
        '{"description":"Forbidden: bot was blocked by the user"}',
        null,
      ).gone,
    ).toMatch(/bot was blocked/);
    expect(readAnswer('telegram', 200, '{"ok":false}', null).ok).toBe(false);
    expect(readAnswer('discord', 204, '', null).ok).toBe(true);
  });

  it('shows only the host and the last 4 characters of a secret', () => {
    expect(
      targetHint(
        'slack',
        { url: 'https://hooks.slack.com/services/T/B/abcdWXYZ' },
        reach,
      ),
    ).toBe('hooks.slack.com …WXYZ');
    expect(targetHint('telegram', { botToken: '1:secretTOKEN9' }, reach)).toBe(
      'api.telegram.org bot…KEN9',
    );
  });
});
