import { describe, expect, it } from "vitest";
import { EVENT_RESOURCE_TYPES, resourceTypeOfId } from "../../src/domains/events/catalog.js";

/** The events list finds a resource's events by (resource_type, resource_id): the type comes from the id's prefix. */
describe("resourceTypeOfId", () => {
  it("names the type of every resource events are about, and none for anything else", () => {
    expect(["inv_1", "mdt_1", "ord_1", "pay_1", "bcr_1", "rcm_1", "whs_1"].map(resourceTypeOfId)).toEqual([...EVENT_RESOURCE_TYPES]);
    for (const id of ["evt_1", "ord", "ord1", "_ord_1", "ORD_1", "constructor_1", "__proto___1", "toString_1", ""]) expect(resourceTypeOfId(id), id).toBeNull();
  });
});
