import { z } from "zod";

export const helper = () => z.string().parse("ok");
