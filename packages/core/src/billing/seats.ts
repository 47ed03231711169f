import { err, ok, type Result } from 'neverthrow';
import { errors, panyaError, type PanyaError } from '../errors.js';
import { PLANS, PLAN_NAMES, type PlanId } from '../plans.js';

export interface SeatAddonChange {
  seats: number;
  /** Paid add-on seats: seats beyond those included in the base price. */
  addonSeats: number;
  monthlySatang: number;
}

/**
 * The Team seat add-on (spec: 800 THB per seat, seats 6 to 10, at most 5 add-on seats). `seats`
 * is the team's total; the included seats (5) may be asked for to drop the add-on.
 */
export function seatAddon(plan: PlanId, seats: number): Result<SeatAddonChange, PanyaError> {
  const addon = PLANS[plan].seatAddon;
  if (!addon) {
    return err(panyaError('plan_required', { message: `The seat add-on is part of the Team plan; ${PLAN_NAMES[plan]} does not offer it.`, plan: 'team' }));
  }
  const min = addon.includedSeats;
  const max = addon.includedSeats + addon.maxAddonSeats;
  if (!Number.isInteger(seats) || seats < min || seats > max) {
    return err(errors.invalid(`seats must be a whole number from ${min} to ${max}.`, [{ path: 'seats', message: `from ${min} to ${max}` }]));
  }
  const addonSeats = seats - addon.includedSeats;
  return ok({ seats, addonSeats, monthlySatang: addonSeats * addon.pricePerSeatSatang });
}
