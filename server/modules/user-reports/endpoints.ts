import type { z } from "zod";

import {
  REPORT_STEPS,
  REPORT_TRANSITION,
  assignReportBody,
  assigneesSchema,
  startReportBody,
  userReports as userReportsDecl,
} from "../../../src/shared/modules/user-reports";
import { errorResponses, idParamsSchema } from "../../../src/shared/schemas/common";
import { currentAdmin } from "../../auth/access";
import type { ModuleEndpoints } from "../../kit/bind";
import { answerEtag, requestedVersion, versionsOf } from "../../kit/versions";
import { reportAssignees, reportSteps } from "./rules";

/**
 * Assign and start, and the administrators a report can be assigned to. Resolve, reject and
 * reopen are the module's declared actions: the kit registers their routes (and resolve's four
 * eyes).
 */
export const userReportEndpoints: ModuleEndpoints = async (app, { db, bound }) => {
  const tags = ["user-reports"];
  const steps = reportSteps(db, bound);
  const bodies: Record<keyof typeof steps, z.ZodType> = {
    assign: assignReportBody,
    start: startReportBody,
  };
  const summaries = {
    assign: "Assign a report to an administrator holding User Report",
    start: "Start work on an open report (its assignee, if none, is whoever starts it)",
  };
  for (const name of Object.keys(steps) as Array<keyof typeof steps>) {
    app.post(
      `/api/user-reports/:id/${name}`,
      {
        config: { thing: "User Report", versions: versionsOf(bound.module) },
        schema: {
          tags,
          summary: summaries[name],
          description: `409 ${REPORT_TRANSITION} unless the report is ${REPORT_STEPS[name].join(" or ")}.`,
          params: idParamsSchema,
          body: bodies[name],
          response: { 200: userReportsDecl.item, ...errorResponses(400, 401, 403, 404, 409) },
        },
      },
      async (request, reply) => {
        const { id } = request.params;
        const versioned = requestedVersion(bound, request, id);
        const item = await steps[name](currentAdmin(request), id, request.body as never, versioned);
        answerEtag(bound, reply, id, item);
        return item as never;
      },
    );
  }
  app.get(
    "/api/user-reports/assignees",
    {
      config: { thing: "User Report Assignees" },
      schema: {
        tags,
        summary: "The administrators a report can be assigned to, by name",
        response: { 200: assigneesSchema, ...errorResponses(401, 403) },
      },
    },
    async () => reportAssignees(db),
  );
};
