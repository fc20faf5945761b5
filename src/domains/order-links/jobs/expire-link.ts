import type { TaskHandler } from "../../shared/jobs/task.js";
import { expireLink } from "../lifecycle.js";

/** At a link's `expires_at`: ACTIVE -> EXPIRED (a confirmed or cancelled link is left as it is). */
export const expireLinkJob: TaskHandler<"order_links__expire"> = async ({ link_id }, { services }) => {
  await expireLink(services, link_id);
};
