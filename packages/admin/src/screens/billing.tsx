import { useEffect, useState } from 'preact/hooks';
import { api } from '../api.js';
import type { AppContext } from '../context.js';
import { lang, t, term, useLang } from '../i18n.js';
import { ErrorBox, Section, useAction } from '../ui.js';

interface Usage {
  period: string;
  plan: string;
  resolutions: number;
  apiQueries: number;
  resolutionEquivalents?: number;
  guidedFlows: number;
  addonSeats: number;
  included: { resolutions: number | null };
  overage: { resolutions: number; apiQueries: number };
  /** False without a payment processor: usage only, nothing charged, no checkout. */
  billingConfigured?: boolean;
  projectedSatang: number | null;
  hardCap?: { limit: number | null; applies: boolean; reached: boolean };
  parts?: { from: string; to: string; plan: string; grandfathered: boolean; resolutions: number; included: { resolutions: number | null }; overage: { resolutions: number } }[];
}

interface ResolutionLine {
  id: string;
  conversationId: string;
  qualifiedAt: string;
  state: 'counted' | 'refunded' | 'credited' | 'disputed';
  disputableUntil: string | null;
}

const PLANS = ['team', 'business', 'growth'] as const;
const baht = (satang: number) => new Intl.NumberFormat(lang() === 'th' ? 'th-TH' : 'en-GB', { style: 'currency', currency: 'THB' }).format(satang / 100);

/** Usage and billing: this month against the included amounts, overage, projected charge, checkout, seats. */
export function BillingScreen({ ctx }: { ctx: AppContext }) {
  useLang();
  const [usage, setUsage] = useState<Usage | null>(null);
  const [lines, setLines] = useState<ResolutionLine[]>([]);
  const [next, setNext] = useState<string | null>(null);
  const [seats, setSeats] = useState(6);
  const load = useAction();
  const act = useAction();

  const loadUsage = () => load.run(async () => setUsage(await api<Usage>('GET', `${ctx.tenantBase}/billing/usage`)));
  async function loadLines(cursor: string | null) {
    const page = await load.run(() => api<{ data: ResolutionLine[]; nextCursor: string | null }>('GET', `${ctx.tenantBase}/billing/resolutions${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''}`));
    if (page) {
      setLines((old) => (cursor ? [...old, ...page.data] : page.data));
      setNext(page.nextCursor);
    }
  }
  useEffect(() => {
    void loadUsage();
    void loadLines(null);
  }, []);

  async function checkout(plan: string, interval: 'month' | 'year') {
    // A live subscription moves to the new plan in place; only a tenant without one goes to checkout.
    const outcome = await act.run(() => api<{ url?: string; changed?: boolean }>('POST', `${ctx.tenantBase}/billing`, { plan, interval }));
    if (outcome?.url) location.assign(outcome.url);
    else if (outcome?.changed) void loadUsage();
  }

  async function dispute(line: ResolutionLine) {
    const reason = prompt(t('bill.disputeReason'));
    if (!reason) return;
    const done = await act.run(() => api('POST', `${ctx.tenantBase}/billing/resolutions/${encodeURIComponent(line.id)}/dispute`, { reason }));
    if (done) {
      void loadLines(null);
      void loadUsage();
    }
  }

  async function setSeatCount(e: Event) {
    e.preventDefault();
    await act.run(() => api('POST', `${ctx.tenantBase}/billing/seat-addon`, { seats }));
  }

  const capReached = usage?.hardCap?.reached ?? false;
  return (
    <>
      <h1>{t('bill.title')}</h1>
      <ErrorBox error={load.error} />
      {usage ? (
        <Section title={`${t('bill.period')}: ${usage.period}`} id="bill-usage">
          <p>
            {t('bill.plan')}: <strong>{term('plan', usage.plan)}</strong>
          </p>
          {usage.billingConfigured === false ? (
            <p role="note" class="muted" id="bill-not-configured">
              {t('bill.notConfigured')}
            </p>
          ) : null}
          <table>
            <thead>
              <tr>
                <th scope="col">{t('bill.metric')}</th>
                <th scope="col">{t('bill.used')}</th>
                <th scope="col">{t('bill.included')}</th>
                <th scope="col">{t('bill.overage')}</th>
              </tr>
            </thead>
            <tbody>
              <tr>
                <td>{t('bill.resolutions')}</td>
                <td>{usage.resolutions}</td>
                <td>{usage.included.resolutions ?? '∞'}</td>
                <td>{usage.overage.resolutions}</td>
              </tr>
              <tr>
                <td>{t('bill.apiQueries')}</td>
                <td>{usage.apiQueries}</td>
                <td>—</td>
                <td>{usage.overage.apiQueries}</td>
              </tr>
              <tr>
                <td>{t('bill.flows')}</td>
                <td>{usage.guidedFlows}</td>
                <td>—</td>
                <td>—</td>
              </tr>
            </tbody>
          </table>
          {usage.parts && usage.parts.length > 1 ? (
            <table>
              <caption>{t('bill.parts')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('bill.from')}</th>
                  <th scope="col">{t('bill.plan')}</th>
                  <th scope="col">{t('bill.used')}</th>
                  <th scope="col">{t('bill.included')}</th>
                  <th scope="col">{t('bill.overage')}</th>
                </tr>
              </thead>
              <tbody>
                {usage.parts.map((p) => (
                  <tr key={p.from}>
                    <td>{p.from.slice(0, 10)}</td>
                    <td>{p.plan}{p.grandfathered ? ` (${t('bill.grandfathered')})` : ''}</td>
                    <td>{p.resolutions}</td>
                    <td>{p.included.resolutions ?? '—'}</td>
                    <td>{p.overage.resolutions}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : null}
          {usage.projectedSatang !== null ? (
            <p class="total">
              {t('bill.projected')}: <strong>{baht(usage.projectedSatang)}</strong>
            </p>
          ) : null}
          <p class="muted">
            {t('bill.hardCapLimit', { n: usage.hardCap?.limit === null || usage.hardCap?.limit === undefined ? '∞' : String(usage.hardCap.limit) })}
          </p>
          <p role="status" class={capReached ? 'inline-error' : 'muted'}>
            {capReached ? t('bill.hardCap') : t('bill.underCap')}
          </p>
        </Section>
      ) : (
        <p>{t('loading')}</p>
      )}
      <Section title={t('bill.resolutionsTitle')} id="bill-resolutions">
        {lines.length === 0 ? (
          <p class="muted">{t('bill.noResolutions')}</p>
        ) : (
          <table>
            <thead>
              <tr>
                <th scope="col">{t('bill.qualifiedAt')}</th>
                <th scope="col">{t('bill.conversation')}</th>
                <th scope="col">{t('bill.state')}</th>
                <th scope="col"></th>
              </tr>
            </thead>
            <tbody>
              {lines.map((line) => (
                <tr key={line.id}>
                  <td>{line.qualifiedAt.replace('T', ' ').slice(0, 16)}</td>
                  <td>
                    <code>{line.conversationId}</code>
                  </td>
                  <td>{t(`bill.state.${line.state}`)}</td>
                  <td>
                    {line.disputableUntil ? (
                      <button type="button" class="secondary" disabled={act.busy} onClick={() => dispute(line)}>
                        {t('bill.dispute')}
                      </button>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {next ? (
          <button type="button" class="secondary" disabled={load.busy} onClick={() => loadLines(next)}>
            {t('bill.more')}
          </button>
        ) : null}
      </Section>
      {usage?.billingConfigured === false ? null : (
      <Section title={t('bill.checkout')} id="bill-checkout">
        <div class="row wrap">
          {PLANS.map((plan) =>
            (['month', 'year'] as const).map((interval) => (
              <button type="button" class="secondary" key={`${plan}-${interval}`} disabled={act.busy} onClick={() => checkout(plan, interval)}>
                {t('bill.checkoutTo', { plan: term('plan', plan), interval: interval === 'month' ? t('bill.monthly') : t('bill.annual') })}
              </button>
            )),
          )}
        </div>
        <form class="row" onSubmit={setSeatCount}>
          <label>
            {t('bill.seats')}
            <input type="number" min={6} max={10} value={seats} onInput={(e) => setSeats(Number((e.target as HTMLInputElement).value))} />
          </label>
          <button type="submit" disabled={act.busy}>
            {t('bill.setSeats')}
          </button>
        </form>
        <ErrorBox error={act.error} />
      </Section>
      )}
    </>
  );
}
