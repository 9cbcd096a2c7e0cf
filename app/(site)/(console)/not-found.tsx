import { ButtonLink } from "@/components/console/button";

// A console page about something that does not exist or that the user may not see (another
// tenant's project, an unknown template): the same page either way, with a 404 status, because
// every check that leads here runs before the response starts (the console has no loading.tsx:
// a Suspense boundary above a notFound() would send 200 first).
export default function ConsoleNotFound() {
  return (
    <section className="mx-auto mt-12 max-w-md space-y-3 text-center">
      <h1 className="text-2xl font-semibold">Page not found</h1>
      <p className="text-sm text-slate-600">It does not exist, or your account has no access to it.</p>
      <ButtonLink href="/projects" intent="primary">
        Your projects
      </ButtonLink>
    </section>
  );
}
