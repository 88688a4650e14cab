/**
 * Money is integer sen in the database and the API (docs/domain.md) and ringgit on screen. Whole
 * numbers throughout: dividing by 100 in floating point would print artefacts on large amounts.
 */

const groupThousands = (digits: string) => digits.replace(/\B(?=(\d{3})+(?!\d))/g, ",");

/** `123456` → `RM 1,234.56`; negative amounts (refunds, adjustments) → `-RM 12.30`. */
export function formatRinggit(sen: number): string {
  if (!Number.isFinite(sen)) throw new RangeError(`Not an amount of sen: ${sen}`);
  const whole = Math.round(Math.abs(sen));
  const ringgit = groupThousands(String(Math.floor(whole / 100)));
  const cents = String(whole % 100).padStart(2, "0");
  return `${sen < 0 && whole > 0 ? "-" : ""}RM ${ringgit}.${cents}`;
}

/** A rate in basis points (commission, fees) as a percentage: `1234` → `12.34%`. */
export function formatBasisPoints(basisPoints: number): string {
  if (!Number.isFinite(basisPoints)) throw new RangeError(`Not a rate: ${basisPoints}`);
  const whole = Math.round(Math.abs(basisPoints));
  const percent = `${Math.floor(whole / 100)}.${String(whole % 100).padStart(2, "0")}%`;
  return basisPoints < 0 && whole > 0 ? `-${percent}` : percent;
}

/**
 * A merchant's fee on one payment (docs/domain.md, "The ledger"): the amount times the business's
 * rate in basis points, rounded half up to the sen, per payment. The server writes it on the
 * payment's ledger row with the rate in force then; a later rate change applies to later payments.
 */
export function feeOfPayment(amountSen: number, feeRateBp: number): number {
  if (!Number.isSafeInteger(amountSen) || amountSen < 0) {
    throw new RangeError(`Not a payment in sen: ${amountSen}`);
  }
  if (!Number.isInteger(feeRateBp) || feeRateBp < 0 || feeRateBp > 10_000) {
    throw new RangeError(`Not a fee rate in basis points: ${feeRateBp}`);
  }
  // Whole numbers only: amount × rate stays below 2^53 for any amount below 9 × 10^11 sen.
  return Math.floor((amountSen * feeRateBp + 5_000) / 10_000);
}
