/** Account resources: profile (spec 2.1), funds (2.2), token generation (4.1). */
import { z } from 'zod';
import { bool, num, optStr } from './common.js';

export const ProfileSchema = z
  .object({
    user_id: z.union([z.string(), z.number()]).transform(String),
    email: optStr,
    first_name: optStr,
    last_name: optStr,
    demat_id: optStr,
    is_nse_onboarded: bool,
    is_bse_onboarded: bool,
    is_nse_fno_onboarded: bool,
    is_bse_fno_onboarded: bool,
    ucc: optStr,
    is_ddpi_active: bool,
  })
  .transform((p) => ({
    userId: p.user_id,
    email: p.email,
    firstName: p.first_name,
    lastName: p.last_name,
    dematId: p.demat_id,
    nseOnboarded: p.is_nse_onboarded,
    bseOnboarded: p.is_bse_onboarded,
    nseFnoOnboarded: p.is_nse_fno_onboarded,
    bseFnoOnboarded: p.is_bse_fno_onboarded,
    ucc: p.ucc,
    ddpiActive: p.is_ddpi_active,
  }));
export type Profile = z.output<typeof ProfileSchema>;

/**
 * Funds are account-level rupee amounts (balances, P&L, charges). They are kept as rupee numbers
 * rather than paise: balances can carry sub-paisa accruals and nothing here is matched or
 * risk-checked at tick precision; `fundsPaise` gives the paise view where a check needs it.
 */
const amount = num;
export const FundsSchema = z
  .object({
    sod_balance: amount,
    pledge_received: amount.optional(),
    pledge_remained: amount.optional(),
    detailed_avl_balance: z.record(z.string(), num).default({}),
    withdrawal_balance: amount.optional(),
    funds_added: amount.optional(),
    funds_withdrawn: amount.optional(),
    realized_pnl: amount.optional(),
    unrealized_pnl: amount.optional(),
    brokerage: amount.optional(),
    eq_charges: amount.optional(),
    fno_charges: amount.optional(),
  })
  .transform((f) => ({
    sodBalance: f.sod_balance,
    pledgeReceived: f.pledge_received ?? 0,
    pledgeRemained: f.pledge_remained ?? 0,
    available: f.detailed_avl_balance,
    withdrawalBalance: f.withdrawal_balance ?? 0,
    fundsAdded: f.funds_added ?? 0,
    fundsWithdrawn: f.funds_withdrawn ?? 0,
    realizedPnl: f.realized_pnl ?? 0,
    unrealizedPnl: f.unrealized_pnl ?? 0,
    brokerage: f.brokerage ?? 0,
    eqCharges: f.eq_charges ?? 0,
    fnoCharges: f.fno_charges ?? 0,
  }));
export type Funds = z.output<typeof FundsSchema>;

/** `POST /generate/token` answer: the token is in `token` (spec 4.1), inside `data` or at the top. */
export const GenerateTokenResponseSchema = z
  .object({
    data: z.object({ token: z.string().min(1) }).optional(),
    token: z.string().min(1).optional(),
  })
  .refine((r) => (r.data?.token ?? r.token) !== undefined, { message: 'no `token` in the answer', path: ['data', 'token'] })
  .transform((r) => (r.data?.token ?? r.token) as string);
