import { expect, test } from "@playwright/test";
import { weatherCardForm } from "../testing/weather-card-upload";
import type { StartedApp } from "../testing/start-app";
import { withAppDatabase } from "./database-checks";
import { createOwnDatabase, startOwnApp, stopOwnApp } from "./own-app";

// A scheduled go-live survives a restart (issue 36, docs/adr/0150-release-control.md): scheduled
// while the app runs, due while no process runs, carried out by the next process that starts —
// once. The time passing while the app is stopped is the schedule moved into the past in the
// database (no wait on the clock, whatever the machine's speed). On PGlite and on PostgreSQL (a cluster of the spec's own). Exactly once across two
// running processes is reliability/scale-out.spec.ts's.

/** Only a guard against a hang: no step waits longer for its event. */
const hangGuardMs = 120_000;


test("a go-live due while the app is stopped is carried out once by the next start", async () => {
  test.setTimeout(300_000);
  const database = await createOwnDatabase("scheduled-go-live");
  let app: StartedApp | undefined;
  try {
    app = await startOwnApp(database);
    const auth = { Authorization: `Bearer ${app.token}` };
    const uploaded = await fetch(`${app.baseUrl}/api/Projects/${app.projectId}/templates/upload`, { method: "POST", headers: auth, body: weatherCardForm("Scheduled card") });
    expect(uploaded.status).toBe(201);
    const { id } = (await uploaded.json()) as { id: string };
    const scheduled = await fetch(`${app.baseUrl}/api/Projects/${app.projectId}/templates/${id}/deploy`, {
      method: "POST",
      headers: { ...auth, "Content-Type": "application/json" },
      body: JSON.stringify({ at: new Date(Date.now() + 86_400_000).toISOString() }),
    });
    expect(scheduled.status).toBe(200);
    await stopOwnApp(app);
    // While no process runs, its instant comes.
    const [due] = await withAppDatabase(database, (query) =>
      query<{ status: string; deploy_at: Date }>("update templates set deploy_at = now() - interval '1 second' where id = $1 returning status, deploy_at", [id]),
    );
    expect(due!.status).toBe("Testing");
    const at = new Date(due!.deploy_at);

    app = await startOwnApp(database);
    const started = app;
    await expect
      .poll(async () => ((await (await fetch(`${started.baseUrl}/api/Projects/${started.projectId}/templates/${id}`, { headers: { Authorization: `Bearer ${started.token}` } })).json()) as { status: string }).status, {
        timeout: hangGuardMs,
        intervals: [250],
      })
      .toBe("Production");
    const deployed = await withAppDatabase(database, (query) =>
      query<{ data: { scheduledFor?: string } }>("select data from audit_events where target_id = $1 and action = 'template.deployed'", [id]),
    );
    expect(deployed.map((row) => row.data.scheduledFor)).toEqual([at.toISOString()]);
    expect(app.output()).toContain(`Scheduled go-live of template ${id}: deployed.`);
  } finally {
    await stopOwnApp(app);
    database.destroy();
  }
});
