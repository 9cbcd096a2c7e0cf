import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { addTemplate, newTenant, tenantWithTemplate, wireEvent } from "@/testing/ingest";
import { createTemplateCheck, loadProjectTemplates, sortByTemplate, templateRefusals } from "./project-templates";

// The check of an event's template against its project's templates, on real templates rows; the
// clock is the test's, so the reload intervals are stepped over rather than waited for.

/** A check on a clock the test moves, counting the loads it makes. */
function checkWithClock() {
  let clock = 0;
  let loads = 0;
  const check = createTemplateCheck({
    load: (projectId) => {
      loads++;
      return loadProjectTemplates(projectId);
    },
    now: () => clock,
  });
  return { check, advance: (ms: number) => void (clock += ms), loads: () => loads };
}

const pair = (template_id: string, template_version: string) => ({ template_id, template_version });

describe("createTemplateCheck – the project's templates", () => {
  it("a pair the project has → null; an unknown id, a known id with another version, another project's template → why not", async () => {
    const { tenant, template } = await tenantWithTemplate();
    const other = await tenantWithTemplate();
    const { check } = checkWithClock();
    expect(
      await check.refusals(tenant.projectId, [
        pair(template.id, template.version),
        pair(randomUUID(), "1.0"),
        pair(template.id, "1.1"),
        pair(other.template.id, other.template.version),
      ]),
    ).toEqual([null, templateRefusals.unknownId, templateRefusals.unknownVersion, templateRefusals.unknownId]);
  });

  it("a template added after the set was loaded counts at once: the miss reloads the set", async () => {
    const { tenant, template } = await tenantWithTemplate();
    const { check, loads } = checkWithClock();
    expect(await check.refusals(tenant.projectId, [pair(template.id, "1.0")])).toEqual([null]);
    const added = await addTemplate(tenant.projectId, "1.1");
    expect(await check.refusals(tenant.projectId, [pair(added.id, "1.1")])).toEqual([null]);
    expect(loads()).toBe(2);
  });

  it("a flood of unknown ids reloads the set once a second at most; a template added meanwhile counts from the next reload", async () => {
    const { tenant, template } = await tenantWithTemplate();
    const { check, advance, loads } = checkWithClock();
    await check.refusals(tenant.projectId, [pair(template.id, "1.0")]);
    expect(loads()).toBe(1);
    for (let i = 0; i < 50; i++) {
      expect(await check.refusals(tenant.projectId, [pair(randomUUID(), "1.0")])).toEqual([templateRefusals.unknownId]);
    }
    // The first miss reloaded; the other 49, within the second after it, did not.
    expect(loads()).toBe(2);
    const added = await addTemplate(tenant.projectId, "2.0");
    advance(999);
    expect(await check.refusals(tenant.projectId, [pair(added.id, "2.0")])).toEqual([templateRefusals.unknownId]);
    expect(loads()).toBe(2);
    advance(1);
    expect(await check.refusals(tenant.projectId, [pair(added.id, "2.0")])).toEqual([null]);
    expect(loads()).toBe(3);
  });

  it("concurrent misses share one reload", async () => {
    const { tenant, template } = await tenantWithTemplate();
    const { check, loads } = checkWithClock();
    await check.refusals(tenant.projectId, [pair(template.id, "1.0")]);
    await Promise.all(Array.from({ length: 20 }, () => check.refusals(tenant.projectId, [pair(randomUUID(), "1.0")])));
    expect(loads()).toBe(2);
  });

  it("a set is used for 30 s, then loaded again without a miss", async () => {
    const { tenant, template } = await tenantWithTemplate();
    const { check, advance, loads } = checkWithClock();
    await check.refusals(tenant.projectId, [pair(template.id, "1.0")]);
    advance(29_999);
    await check.refusals(tenant.projectId, [pair(template.id, "1.0")]);
    expect(loads()).toBe(1);
    advance(1);
    await check.refusals(tenant.projectId, [pair(template.id, "1.0")]);
    expect(loads()).toBe(2);
  });

  it("a failed load fails its request and is not kept: the next request loads again", async () => {
    const { tenant, template } = await tenantWithTemplate();
    let failures = 1;
    const check = createTemplateCheck({
      load: (projectId) => (failures-- > 0 ? Promise.reject(new Error("database unavailable")) : loadProjectTemplates(projectId)),
      now: () => 0,
    });
    await expect(check.refusals(tenant.projectId, [pair(template.id, "1.0")])).rejects.toThrow("database unavailable");
    expect(await check.refusals(tenant.projectId, [pair(template.id, "1.0")])).toEqual([null]);
  });
});

describe("sortByTemplate", () => {
  it("keeps the events whose template the project has, in order, and gives each other one its reason", async () => {
    const { tenant, template } = await tenantWithTemplate();
    const known = [wireEvent(tenant, "video.played", pair(template.id, "1.0")), wireEvent(tenant, "session.started", pair(template.id, "1.0"))];
    const unknownId = wireEvent(tenant, "video.played", pair(randomUUID(), "1.0"));
    const unknownVersion = wireEvent(tenant, "video.paused", pair(template.id, "3.0"));
    expect(await sortByTemplate(tenant.projectId, [known[0]!, unknownId, known[1]!, unknownVersion])).toEqual({
      known,
      refused: [
        { reasons: [templateRefusals.unknownId], event: unknownId },
        { reasons: [templateRefusals.unknownVersion], event: unknownVersion },
      ],
    });
  });

  it("a project without templates refuses every event", async () => {
    const tenant = newTenant();
    const event = wireEvent(tenant);
    expect(await sortByTemplate(tenant.projectId, [event])).toEqual({ known: [], refused: [{ reasons: [templateRefusals.unknownId], event }] });
  });
});
