import { z } from "zod";

import { PARKING_LOT_STATUSES, PARKING_SESSION_STATUSES } from "../domain";
import { defineModule, field, form, remarkAction, type ItemOf } from "../kit/module";
import {
  administratorLink,
  choice,
  count,
  instant,
  money,
  recordId,
  selfLink,
  text,
  userLink,
} from "../kit/presets";
import { isoDateTime } from "../kit/types";
import { PERMISSION } from "../permissions";
import { crossFieldRule } from "../schemas/rules";
import { safeText } from "../text";

/** The most an hour or a day of parking may cost (sen): RM 1,000, beyond any campus tariff. */
export const MAX_PARKING_RATE_SEN = 100_000;
/** The most bays a lot may have. */
export const MAX_LOT_CAPACITY = 100_000;

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/**
 * The fee of a stay: each started hour at the hourly rate, each 24 hours from entry capped at
 * the daily cap (a full 24 hours costs the cap). Rates are the session's own, kept at entry.
 */
export function parkingFeeSen(
  enteredAt: Date,
  exitedAt: Date,
  rates: { hourlyRateSen: number; dailyCapSen: number },
): number {
  const stayMs = Math.max(0, exitedAt.getTime() - enteredAt.getTime());
  const fullDays = Math.floor(stayMs / DAY_MS);
  const restHours = Math.ceil((stayMs - fullDays * DAY_MS) / HOUR_MS);
  return (
    fullDays * rates.dailyCapSen + Math.min(restHours * rates.hourlyRateSen, rates.dailyCapSen)
  );
}

const rateSen = (what: string) =>
  z
    .int(`${what} must be a whole number of sen`)
    .min(0, `${what} must not be negative`)
    .max(MAX_PARKING_RATE_SEN, `${what} must be at most ${MAX_PARKING_RATE_SEN} sen`);

/** Decimals a coordinate keeps: 7 places of a degree are about a centimetre on the ground. */
export const DEGREE_DECIMALS = 7;

const degrees = (what: string, limit: number) =>
  z
    .number(`${what} must be a number`)
    .min(-limit, `${what} must be between -${limit} and ${limit}`)
    .max(limit, `${what} must be between -${limit} and ${limit}`)
    // More would be noise no map shows, and a double cannot hold 20 of them anyway.
    .refine((value) => Number(value.toFixed(DEGREE_DECIMALS)) === value, {
      message: `${what} has at most ${DEGREE_DECIMALS} decimal places`,
      params: { rule: "decimals" },
    })
    .meta({ description: `Degrees, at most ${DEGREE_DECIMALS} decimal places` });

/** A lot as staff add or change it: on the globe, at least one bay, the cap at least an hour. */
export const parkingLotBody = crossFieldRule(
  z.strictObject({
    name: safeText().trim().min(1, "Name is required").max(100),
    // Checked as typed, then upper-cased: the document states the same pattern.
    code: safeText()
      .trim()
      .regex(/^\s*[A-Za-z0-9][A-Za-z0-9-]{0,11}\s*$/, "Code is 1 to 12 letters, digits or hyphens")
      .toUpperCase(),
    latitude: degrees("Latitude", 90),
    longitude: degrees("Longitude", 180),
    capacity: z
      .int("Capacity must be a whole number of bays")
      .min(1, "Capacity must be at least 1 bay")
      .max(MAX_LOT_CAPACITY, `Capacity must be at most ${MAX_LOT_CAPACITY} bays`),
    hourlyRateSen: rateSen("Hourly rate"),
    dailyCapSen: rateSen("Daily cap"),
    status: z.enum(PARKING_LOT_STATUSES),
  }),
  { fields: ["dailyCapSen", "hourlyRateSen"], rule: "dailyCapSen ≥ hourlyRateSen" },
  (lot, context) => {
    if (lot.dailyCapSen < lot.hourlyRateSen) {
      context.addIssue({
        code: "custom",
        path: ["dailyCapSen"],
        message: "The daily cap must be at least the hourly rate",
        params: { rule: "notBelow", other: "hourlyRateSen" },
      });
    }
  },
).meta({ id: "ParkingLotBody" });
export type ParkingLotBody = z.infer<typeof parkingLotBody>;

/** Create and edit are one form: the whole lot, its rates typed as RM. */
const lotForm = form({
  body: parkingLotBody,
  audit: "parking_lot",
  inputs: { hourlyRateSen: { kind: "money" }, dailyCapSen: { kind: "money" } },
});

/** UCSI Parking (39): the car parks on campus, on a map with how full each is. */
export const parkingLots = defineModule({
  name: "parking-lots",
  menu: "parking-lot",
  permission: PERMISSION.parking,
  thing: { one: "Parking Lot", many: "Parking Lots" },
  i18n: "parking",
  schemaId: "ParkingLot",
  paths: {
    list: "/parking",
    show: "/parking-lot",
    create: "/parking-lot/create",
    edit: "/parking-lot/:id/edit",
  },
  fields: {
    id: recordId(),
    name: selfLink({ list: 200, sort: true, filter: false }),
    code: text({ list: 90, sort: true, filter: true, search: true }),
    latitude: field(z.number(), { show: true, export: true }),
    longitude: field(z.number(), { show: true, export: true }),
    capacity: count({ list: 100 }),
    /** Cars in the lot now: its active sessions. */
    occupied: count({ list: 100, sort: false }),
    hourlyRateSen: money({ list: 120 }),
    dailyCapSen: money({ list: 120 }),
    status: choice(z.enum(PARKING_LOT_STATUSES), {
      list: 100,
      colours: { open: "green", closed: "grey" },
    }),
    updatedAt: field(isoDateTime, { show: true, display: { kind: "dateTime" } }),
  },
  titleField: "name",
  defaultSort: [
    ["code", "asc"],
    ["id", "asc"],
  ],
  create: lotForm,
  edit: lotForm,
});

/**
 * A plate as typed: 2 to 10 ASCII letters and digits, blanks anywhere. The pattern is checked on
 * the text as sent (so the document states it as it is, and "ß" is not read as "SS").
 */
const PLATE_INPUT_PATTERN = /^\s*(?:[A-Za-z0-9]\s*){2,10}$/;

/** A plate as the gates read it: upper case, without spaces ("wxy 1234" is WXY1234). */
export const plateSchema = safeText()
  .trim()
  .regex(PLATE_INPUT_PATTERN, "Plate is 2 to 10 letters and digits")
  .transform((plate) => plate.replace(/\s+/g, "").toUpperCase());

/** A session registered by hand (the gate failed to read the car): it starts now. */
export const parkingSessionBody = z
  .strictObject({
    accountNumber: safeText().trim().min(1, "Account number is required").max(32),
    plate: plateSchema,
    lotCode: safeText().trim().toUpperCase().min(1, "Lot code is required").max(12),
  })
  .meta({ id: "ParkingSessionBody" });
export type ParkingSessionBody = z.infer<typeof parkingSessionBody>;

/** UCSI Parking (39): each car's stay, ended by hand with its fee charged to the wallet. */
export const parkingSessions = defineModule({
  name: "parking-sessions",
  permission: PERMISSION.parking,
  thing: { one: "Parking Session", many: "Parking Sessions" },
  i18n: "parkingSessions",
  schemaId: "ParkingSession",
  paths: {
    list: "/parking-session",
    show: "/parking-session",
    create: "/parking-session/create",
  },
  fields: {
    id: recordId(),
    plate: selfLink({ list: 120 }),
    lotId: field(z.number().int(), { filter: "record" }),
    lotName: text({ list: 180, display: { kind: "link", to: parkingLots, idField: "lotId" } }),
    ...userLink({ name: { list: 160 } }),
    enteredAt: instant({ list: 160 }),
    exitedAt: instant({ nullable: true, list: 160, filter: false }),
    hourlyRateSen: money(),
    dailyCapSen: money(),
    feeSen: money({ nullable: true, list: 110, filter: true, sort: true }),
    status: choice(z.enum(PARKING_SESSION_STATUSES), {
      list: 110,
      colours: { active: "blue", completed: "green", cancelled: "grey" },
    }),
    paymentReference: text({ nullable: true }),
    remark: text({ nullable: true }),
    ...administratorLink("adminId", "adminName"),
  },
  titleField: "plate",
  defaultSort: [
    ["enteredAt", "desc"],
    ["id", "desc"],
  ],
  totals: ["feeSen"],
  actions: {
    end: remarkAction({
      verb: "end",
      done: "ended",
      when: { status: ["active"] },
      conflictCode: "SESSION_NOT_ACTIVE",
      audit: "parking_session",
    }),
    cancel: remarkAction({
      verb: "cancel",
      done: "cancelled",
      when: { status: ["active"] },
      conflictCode: "SESSION_NOT_ACTIVE",
      danger: true,
      audit: "parking_session",
    }),
  },
  create: form({ body: parkingSessionBody, audit: "parking_session" }),
});

export type ParkingLotDto = ItemOf<typeof parkingLots>;
export type ParkingSessionDto = ItemOf<typeof parkingSessions>;
