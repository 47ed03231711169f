import { useEffect, useState } from 'preact/hooks';
import { api } from '../api.js';
import type { AppContext } from '../context.js';
import { formatDate, t, useLang } from '../i18n.js';
import type { Page } from '../types.js';
import { ErrorBox, Section, StatusBadge, useAction } from '../ui.js';

interface InboxItem { reason: string; kind: string; id: string; conversationId: string | null; title: string; priority: string | null; at: string }
interface Conversation { id: string; workspaceId: string; status: string; locale: string; hasThumbsDown: boolean; handedOff: boolean; tags: string[]; createdAt: string; lastMessageAt: string; firstQuestion?: string | null }
interface Message {
  id: string;
  role: 'user' | 'assistant';
  content: string;
  citations: { n: number; title: string; url: string | null; snippet: string }[];
  grounded: boolean | null;
  feedback: { rating: string; comment: string | null } | null;
}
interface Ticket { id: string; subject: string; priority: string; status: string; dueAt: string; breachedAt: string | null; conversationId: string | null }

/** Inbox and conversations: what needs a human, the conversations with their messages, tickets. */
export function InboxScreen({ ctx }: { ctx: AppContext }) {
  useLang();
  const [inbox, setInbox] = useState<InboxItem[]>([]);
  const [conversations, setConversations] = useState<Conversation[]>([]);
  const [tickets, setTickets] = useState<Ticket[]>([]);
  const [open, setOpen] = useState<{ id: string; messages: Message[] } | null>(null);
  const load = useAction();

  useEffect(() => {
    void load.run(async () => {
      const [i, c, tk] = await Promise.all([
        api<Page<InboxItem>>('GET', `${ctx.base}/inbox`),
        api<Page<Conversation>>('GET', `${ctx.base}/conversations`),
        api<Page<Ticket>>('GET', `${ctx.base}/tickets`),
      ]);
      setInbox(i.data);
      setConversations(c.data);
      setTickets(tk.data);
    });
  }, []);

  async function show(id: string) {
    const messages = await load.run(() => api<Page<Message>>('GET', `${ctx.base}/conversations/${id}/messages`));
    if (messages) {
      setOpen({ id, messages: messages.data });
      requestAnimationFrame(() => document.getElementById('conversation')?.focus());
    }
  }

  return (
    <>
      <h1>{t('inbox.title')}</h1>
      <ErrorBox error={load.error} />
      <Section title={t('inbox.needs')} id="inbox-needs">
        {inbox.length === 0 ? (
          <p>{t('inbox.empty')}</p>
        ) : (
          <ul class="plain">
            {inbox.map((item) => (
              <li key={`${item.kind}-${item.id}-${item.reason}`}>
                <StatusBadge value={item.reason === 'thumbs_down' || item.reason === 'sla_breach' ? 'failed' : 'pending'} label={item.reason} /> {item.title} <span class="muted">{formatDate(item.at)}</span>{' '}
                {item.conversationId ? (
                  <button type="button" class="secondary small" onClick={() => show(item.conversationId!)}>
                    {t('inbox.open')}
                  </button>
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </Section>
      {open ? (
        <section class="card" aria-labelledby="conversation">
          <h2 id="conversation" tabIndex={-1}>
            {t('inbox.messages')} · <code>{open.id}</code>
          </h2>
          <ol class="messages">
            {open.messages.map((m) => (
              <li key={m.id} class={`message ${m.role}`}>
                <p>{m.content}</p>
                {m.citations.length ? (
                  <details>
                    <summary>
                      {t('inbox.citations')} ({m.citations.length})
                    </summary>
                    <ol>
                      {m.citations.map((c) => (
                        <li key={c.n}>
                          [{c.n}] <strong>{c.title}</strong>: {c.snippet}
                        </li>
                      ))}
                    </ol>
                  </details>
                ) : null}
                {m.feedback ? (
                  <p class={m.feedback.rating === 'down' ? 'inline-error' : 'muted'}>
                    {t('inbox.feedback')}: {m.feedback.rating === 'down' ? '👎' : '👍'} {m.feedback.comment ?? ''}
                  </p>
                ) : null}
              </li>
            ))}
          </ol>
        </section>
      ) : null}
      <Section title={t('inbox.conversations')} id="inbox-conversations">
        {conversations.length === 0 ? (
          <p>{t('inbox.empty')}</p>
        ) : (
          <table>
            <thead>
              <tr>
                <th scope="col">{t('inbox.question')}</th>
                <th scope="col">{t('inbox.workspace')}</th>
                <th scope="col">{t('inbox.last')}</th>
                <th scope="col">{t('inbox.status')}</th>
                <th scope="col">{t('inbox.feedback')}</th>
                <th scope="col">
                  <span class="visually-hidden">{t('inbox.open')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {conversations.map((c) => (
                <tr key={c.id} data-conversation={c.id}>
                  <td>{c.firstQuestion ?? '—'}</td>
                  <td>{ctx.workspaces.find((w) => w.id === c.workspaceId)?.name ?? ctx.me.workspace.name}</td>
                  <td>{formatDate(c.lastMessageAt)}</td>
                  <td>{c.handedOff ? t('inbox.handedOff') : t('inbox.openStatus')}</td>
                  <td>{c.hasThumbsDown ? '👎' : '—'}</td>
                  <td>
                    <button type="button" class="secondary small" onClick={() => show(c.id)} aria-label={`${t('inbox.open')}: ${c.firstQuestion ?? formatDate(c.createdAt)}`}>
                      {t('inbox.open')}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Section>
      <Section title={t('inbox.tickets')} id="inbox-tickets">
        {tickets.length === 0 ? (
          <p>{t('inbox.empty')}</p>
        ) : (
          <table>
            <thead>
              <tr>
                <th scope="col">{t('inbox.subject')}</th>
                <th scope="col">{t('inbox.priority')}</th>
                <th scope="col">{t('inbox.status')}</th>
                <th scope="col">{t('inbox.due')}</th>
              </tr>
            </thead>
            <tbody>
              {tickets.map((tk) => (
                <tr key={tk.id}>
                  <td>{tk.subject}</td>
                  <td>{tk.priority}</td>
                  <td>{tk.breachedAt ? <StatusBadge value="failed" label={`${tk.status} · SLA`} /> : tk.status}</td>
                  <td>{formatDate(tk.dueAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Section>
    </>
  );
}
