import { Module } from '@nestjs/common';
import { CatalogService } from './catalog.service';
import { FacilitySetupService } from './facility-setup.service';
import { OnboardingController } from './onboarding.controller';
import { PortfoliosAdminController } from './portfolios-admin.controller';

/** Onboarding a portfolio through the api (issue 16); `import` uses the same services. */
@Module({
  controllers: [OnboardingController, PortfoliosAdminController],
  providers: [CatalogService, FacilitySetupService],
  exports: [CatalogService, FacilitySetupService],
})
export class OnboardingModule {}
